SELECT CAST(date_trunc('year', orders.ordered_at) AS DATE) AS order_date, COUNT(orders.id) AS orders
FROM orders
GROUP BY CAST(date_trunc('year', orders.ordered_at) AS DATE)
ORDER BY order_date
