SELECT COUNT(*) AS orders
FROM (
  SELECT orders.id AS id, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
  GROUP BY orders.id
  HAVING SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) > 40
) AS q
