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
)
SELECT COALESCE(m_revenue.channel, m_orders.channel) AS channel, COALESCE(m_revenue.revenue, 0) AS revenue, COALESCE(m_orders.orders, 0) AS orders
FROM m_revenue
FULL JOIN m_orders ON m_orders.channel IS NOT DISTINCT FROM m_revenue.channel
ORDER BY channel
