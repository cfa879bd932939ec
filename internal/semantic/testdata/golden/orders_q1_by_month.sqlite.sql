SELECT strftime('%Y-%m-01', orders.ordered_at) AS month, COUNT(orders.id) AS orders
FROM orders
WHERE orders.ordered_at >= '2025-01-01'
  AND orders.ordered_at < '2025-04-01'
GROUP BY strftime('%Y-%m-01', orders.ordered_at)
ORDER BY month
