SELECT CAST(date_trunc('quarter', orders.ordered_at) AS DATE) AS quarter, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
FROM order_items
LEFT JOIN orders ON orders.id = order_items.order_id
WHERE orders.status = 'completed'
GROUP BY CAST(date_trunc('quarter', orders.ordered_at) AS DATE)
ORDER BY quarter
