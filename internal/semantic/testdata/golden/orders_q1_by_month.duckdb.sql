SELECT CAST(date_trunc('month', orders.ordered_at) AS DATE) AS month, COUNT(orders.id) AS orders
FROM orders
WHERE orders.ordered_at >= '2025-01-01'
  AND orders.ordered_at < '2025-04-01'
GROUP BY CAST(date_trunc('month', orders.ordered_at) AS DATE)
ORDER BY month
