SELECT COUNT(orders.id) AS orders
FROM orders
WHERE CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) IN (6, 7)
