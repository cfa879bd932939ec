SELECT orders.id, orders.ordered_at
FROM orders
WHERE ((CAST(strftime('%w', orders.ordered_at) AS INTEGER) + 6) % 7 + 1) IN (6, 7)
ORDER BY id NULLS LAST
