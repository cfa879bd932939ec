WITH m_revenue AS (
  SELECT CASE WHEN orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01' THEN 'January 2025' WHEN orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01' THEN 'February 2025' END AS period, orders.channel AS channel, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
    AND ((orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01') OR (orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01'))
  GROUP BY CASE WHEN orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01' THEN 'January 2025' WHEN orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01' THEN 'February 2025' END, orders.channel
)
SELECT m_revenue.period AS period, m_revenue.channel AS channel, m_revenue.revenue AS revenue, m_revenue.revenue / NULLIF(SUM(m_revenue.revenue) OVER (PARTITION BY m_revenue.period), 0) AS revenue_share
FROM m_revenue
ORDER BY CASE m_revenue.period WHEN 'January 2025' THEN 1 WHEN 'February 2025' THEN 2 END, channel
