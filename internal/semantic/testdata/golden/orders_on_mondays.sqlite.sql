SELECT COUNT(orders.id) AS orders
FROM orders
WHERE ((CAST(strftime('%w', orders.ordered_at) AS INTEGER) + 6) % 7 + 1) = 1
