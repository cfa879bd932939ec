WITH m_revenue AS (
  SELECT CAST(date_trunc('month', orders.ordered_at) AS DATE) AS month, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
    AND orders.ordered_at >= '2025-01-01'
    AND orders.ordered_at < '2025-04-01'
  GROUP BY CAST(date_trunc('month', orders.ordered_at) AS DATE)
),
m_orders AS (
  SELECT CAST(date_trunc('month', orders.ordered_at) AS DATE) AS month, COUNT(orders.id) AS orders
  FROM orders
  WHERE orders.ordered_at >= '2025-01-01'
    AND orders.ordered_at < '2025-04-01'
  GROUP BY CAST(date_trunc('month', orders.ordered_at) AS DATE)
),
dim_keys AS (
  SELECT month FROM m_revenue
  UNION
  SELECT month FROM m_orders
)
SELECT dim_keys.month AS month, COALESCE(m_revenue.revenue, 0) AS revenue, COALESCE(m_orders.orders, 0) AS orders
FROM dim_keys
LEFT JOIN m_revenue ON m_revenue.month IS NOT DISTINCT FROM dim_keys.month
LEFT JOIN m_orders ON m_orders.month IS NOT DISTINCT FROM dim_keys.month
ORDER BY month
