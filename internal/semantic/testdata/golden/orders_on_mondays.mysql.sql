SELECT COUNT(orders.id) AS orders
FROM orders
WHERE (WEEKDAY(orders.ordered_at) + 1) = 1
