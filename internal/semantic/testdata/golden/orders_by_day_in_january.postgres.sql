SELECT CAST(date_trunc('day', orders.ordered_at) AS DATE) AS day, COUNT(orders.id) AS orders
FROM orders
WHERE orders.ordered_at >= '2025-01-01'
  AND orders.ordered_at < '2025-02-01'
GROUP BY CAST(date_trunc('day', orders.ordered_at) AS DATE)
ORDER BY day
