SELECT customers.id
FROM customers
WHERE NOT EXISTS (SELECT 1 FROM order_items JOIN products ON products.id = order_items.product_id JOIN orders ON orders.id = order_items.order_id WHERE orders.customer_id = customers.id AND products.category = 'Home')
ORDER BY customers.id
