SELECT orders.id, orders.ordered_at
FROM orders
WHERE CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) IN (6, 7)
ORDER BY id NULLS LAST
