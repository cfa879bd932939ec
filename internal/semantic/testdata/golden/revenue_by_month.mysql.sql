SELECT DATE_FORMAT(orders.ordered_at, '%Y-%m-01') AS month, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
FROM order_items
LEFT JOIN orders ON orders.id = order_items.order_id
WHERE orders.status = 'completed'
GROUP BY DATE_FORMAT(orders.ordered_at, '%Y-%m-01')
ORDER BY month
