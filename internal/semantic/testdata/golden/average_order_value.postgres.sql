WITH m_revenue AS (
  SELECT SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
),
m_completed_orders AS (
  SELECT COUNT(orders.id) AS completed_orders
  FROM orders
  WHERE orders.status = 'completed'
)
SELECT m_revenue.revenue / NULLIF(CAST(m_completed_orders.completed_orders AS DOUBLE PRECISION), 0) AS average_order_value
FROM m_revenue
CROSS JOIN m_completed_orders
