WITH m_orders AS (
  SELECT CASE WHEN orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01' THEN 'January 2025' WHEN orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01' THEN 'February 2025' END AS period, orders.channel AS channel, COUNT(orders.id) AS orders
  FROM orders
  WHERE ((orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01') OR (orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01'))
  GROUP BY CASE WHEN orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01' THEN 'January 2025' WHEN orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01' THEN 'February 2025' END, orders.channel
)
SELECT m_orders.period AS period, m_orders.channel AS channel, m_orders.orders AS orders
FROM m_orders
ORDER BY CASE m_orders.period WHEN 'January 2025' THEN 1 WHEN 'February 2025' THEN 2 END, channel
