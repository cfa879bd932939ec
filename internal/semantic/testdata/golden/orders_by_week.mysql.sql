SELECT DATE_SUB(DATE(orders.ordered_at), INTERVAL WEEKDAY(orders.ordered_at) DAY) AS week, COUNT(orders.id) AS orders
FROM orders
GROUP BY DATE_SUB(DATE(orders.ordered_at), INTERVAL WEEKDAY(orders.ordered_at) DAY)
ORDER BY week
