SELECT printf('%s-%02d-01', strftime('%Y', orders.ordered_at), (CAST(strftime('%m', orders.ordered_at) AS INTEGER) - 1) / 3 * 3 + 1) AS quarter, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
FROM order_items
LEFT JOIN orders ON orders.id = order_items.order_id
WHERE orders.status = 'completed'
GROUP BY printf('%s-%02d-01', strftime('%Y', orders.ordered_at), (CAST(strftime('%m', orders.ordered_at) AS INTEGER) - 1) / 3 * 3 + 1)
ORDER BY quarter
