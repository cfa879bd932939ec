SELECT date(orders.ordered_at) AS day, COUNT(orders.id) AS orders
FROM orders
WHERE orders.ordered_at >= '2025-01-01'
  AND orders.ordered_at < '2025-02-01'
GROUP BY date(orders.ordered_at)
ORDER BY day
