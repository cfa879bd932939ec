SELECT MAKEDATE(YEAR(orders.ordered_at), 1) + INTERVAL (QUARTER(orders.ordered_at) - 1) QUARTER AS quarter, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
FROM order_items
LEFT JOIN orders ON orders.id = order_items.order_id
WHERE orders.status = 'completed'
GROUP BY MAKEDATE(YEAR(orders.ordered_at), 1) + INTERVAL (QUARTER(orders.ordered_at) - 1) QUARTER
ORDER BY quarter
