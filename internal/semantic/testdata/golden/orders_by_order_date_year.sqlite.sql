SELECT strftime('%Y-01-01', orders.ordered_at) AS order_date, COUNT(orders.id) AS orders
FROM orders
GROUP BY strftime('%Y-01-01', orders.ordered_at)
ORDER BY order_date
