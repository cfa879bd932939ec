SELECT COUNT(orders.id) AS orders
FROM orders
WHERE (WEEKDAY(orders.ordered_at) + 1) IN (1, 2, 3, 4, 5)
