WITH m_revenue AS (
  SELECT orders.channel AS channel, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
  GROUP BY orders.channel
),
m_orders AS (
  SELECT orders.channel AS channel, COUNT(orders.id) AS orders
  FROM orders
  GROUP BY orders.channel
),
dim_keys AS (
  SELECT channel FROM m_revenue
  UNION
  SELECT channel FROM m_orders
)
SELECT dim_keys.channel AS channel, COALESCE(m_revenue.revenue, 0) AS revenue, COALESCE(m_orders.orders, 0) AS orders
FROM dim_keys
LEFT JOIN m_revenue ON m_revenue.channel IS NOT DISTINCT FROM dim_keys.channel
LEFT JOIN m_orders ON m_orders.channel IS NOT DISTINCT FROM dim_keys.channel
ORDER BY channel
