SELECT CAST(date_trunc('week', orders.ordered_at) AS DATE) AS week, COUNT(orders.id) AS orders
FROM orders
GROUP BY CAST(date_trunc('week', orders.ordered_at) AS DATE)
ORDER BY week
