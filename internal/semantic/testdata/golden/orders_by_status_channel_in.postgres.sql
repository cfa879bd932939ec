SELECT orders.status AS order_status, COUNT(orders.id) AS orders
FROM orders
WHERE orders.channel IN ('web', 'store')
GROUP BY orders.status
ORDER BY order_status
