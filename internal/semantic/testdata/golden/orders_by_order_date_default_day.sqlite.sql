SELECT date(orders.ordered_at) AS order_date, COUNT(orders.id) AS orders
FROM orders
WHERE orders.ordered_at >= '2025-03-01'
  AND orders.ordered_at < '2025-04-01'
GROUP BY date(orders.ordered_at)
ORDER BY order_date
