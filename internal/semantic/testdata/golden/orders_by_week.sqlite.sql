SELECT date(orders.ordered_at, 'weekday 0', '-6 days') AS week, COUNT(orders.id) AS orders
FROM orders
GROUP BY date(orders.ordered_at, 'weekday 0', '-6 days')
ORDER BY week
