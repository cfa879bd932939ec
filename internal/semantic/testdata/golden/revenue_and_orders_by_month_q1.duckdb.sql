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
)
SELECT COALESCE(m_revenue.month, m_orders.month) AS month, COALESCE(m_revenue.revenue, 0) AS revenue, COALESCE(m_orders.orders, 0) AS orders
FROM m_revenue
FULL JOIN m_orders ON m_orders.month IS NOT DISTINCT FROM m_revenue.month
ORDER BY month
