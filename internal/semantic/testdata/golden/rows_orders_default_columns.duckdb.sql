SELECT orders.id, orders.ordered_at, orders.status, orders.channel, orders.discount_code
FROM orders
WHERE orders.channel = 'store'
ORDER BY orders.id
