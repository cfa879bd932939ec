SELECT COUNT(orders.id) AS orders
FROM orders
WHERE (orders.discount_code IS NULL OR orders.discount_code = '')
