SELECT CAST(date_trunc('day', orders.ordered_at) AS DATE) AS order_date, COUNT(orders.id) AS orders
FROM orders
WHERE orders.ordered_at >= '2025-03-01'
  AND orders.ordered_at < '2025-04-01'
GROUP BY CAST(date_trunc('day', orders.ordered_at) AS DATE)
ORDER BY order_date
