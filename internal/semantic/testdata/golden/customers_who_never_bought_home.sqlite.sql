SELECT customers.id
FROM customers
WHERE customers.id NOT IN (SELECT orders.customer_id FROM order_items JOIN products ON products.id = order_items.product_id JOIN orders ON orders.id = order_items.order_id WHERE orders.customer_id IS NOT NULL AND products.category = 'Home')
ORDER BY customers.id
