SELECT DATE_FORMAT(orders.ordered_at, '%Y-01-01') AS order_date, COUNT(orders.id) AS orders
FROM orders
GROUP BY DATE_FORMAT(orders.ordered_at, '%Y-01-01')
ORDER BY order_date
