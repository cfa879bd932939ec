WITH m_revenue AS (
  SELECT orders.channel AS channel, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
  GROUP BY orders.channel
)
SELECT m_revenue.channel AS channel, m_revenue.revenue AS revenue, m_revenue.revenue / NULLIF(CAST(SUM(m_revenue.revenue) OVER () AS REAL), 0) AS revenue_share
FROM m_revenue
ORDER BY channel
