SELECT products.category AS category, customers.segment AS segment, SUM(order_items.quantity) AS items_sold
FROM order_items
LEFT JOIN products ON products.id = order_items.product_id
LEFT JOIN orders ON orders.id = order_items.order_id
LEFT JOIN customers ON customers.id = orders.customer_id
WHERE products.category <> 'Home'
GROUP BY products.category, customers.segment
ORDER BY category, segment
