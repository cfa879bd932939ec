SELECT orders.channel AS channel, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
FROM order_items
LEFT JOIN orders ON orders.id = order_items.order_id
WHERE orders.status = 'completed'
  AND orders.ordered_at >= '2025-01-01'
  AND orders.ordered_at < '2025-04-01'
  AND CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) IN (1, 2, 3, 4, 5)
GROUP BY orders.channel
ORDER BY channel
