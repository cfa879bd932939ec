SELECT orders.id, orders.ordered_at
FROM orders
WHERE (WEEKDAY(orders.ordered_at) + 1) IN (6, 7)
ORDER BY id
