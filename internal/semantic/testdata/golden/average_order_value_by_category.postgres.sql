WITH m_revenue AS (
  SELECT products.category AS category, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN products ON products.id = order_items.product_id
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
  GROUP BY products.category
),
m_completed_orders AS (
  SELECT category, COUNT(orders_id) AS completed_orders
  FROM (
    SELECT DISTINCT orders.id AS orders_id, products.category AS category
    FROM orders
    LEFT JOIN order_items ON order_items.order_id = orders.id
    LEFT JOIN products ON products.id = order_items.product_id
    WHERE orders.status = 'completed'
  ) AS orders
  GROUP BY category
),
dim_keys AS (
  SELECT category FROM m_revenue
  UNION
  SELECT category FROM m_completed_orders
)
SELECT dim_keys.category AS category, COALESCE(m_revenue.revenue, 0) / NULLIF(CAST(COALESCE(m_completed_orders.completed_orders, 0) AS DOUBLE PRECISION), 0) AS average_order_value
FROM dim_keys
LEFT JOIN m_revenue ON m_revenue.category IS NOT DISTINCT FROM dim_keys.category
LEFT JOIN m_completed_orders ON m_completed_orders.category IS NOT DISTINCT FROM dim_keys.category
ORDER BY category
-- note: completed_orders: each orders row is counted once before aggregating, because joining order_items would repeat it (fan-out)
