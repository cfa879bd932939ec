SELECT COUNT(orders.id) AS orders
FROM orders
WHERE (orders.discount_code NOT IN ('WINTER', 'SPRING') OR orders.discount_code IS NULL)
