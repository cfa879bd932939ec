SELECT DATE_FORMAT(orders.ordered_at, '%Y-%m-01') AS month, COUNT(orders.id) AS orders
FROM orders
WHERE orders.ordered_at >= '2025-01-01'
  AND orders.ordered_at < '2025-04-01'
GROUP BY DATE_FORMAT(orders.ordered_at, '%Y-%m-01')
ORDER BY month
