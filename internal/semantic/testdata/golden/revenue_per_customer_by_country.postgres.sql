WITH m_revenue AS (
  SELECT customers.country AS country, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  LEFT JOIN customers ON customers.id = orders.customer_id
  WHERE orders.status = 'completed'
  GROUP BY customers.country
),
m_customers AS (
  SELECT customers.country AS country, COUNT(customers.id) AS customers
  FROM customers
  GROUP BY customers.country
),
dim_keys AS (
  SELECT country FROM m_revenue
  UNION
  SELECT country FROM m_customers
)
SELECT dim_keys.country AS country, COALESCE(m_revenue.revenue, 0) / NULLIF(CAST(COALESCE(m_customers.customers, 0) AS DOUBLE PRECISION), 0) AS revenue_per_customer
FROM dim_keys
LEFT JOIN m_revenue ON m_revenue.country IS NOT DISTINCT FROM dim_keys.country
LEFT JOIN m_customers ON m_customers.country IS NOT DISTINCT FROM dim_keys.country
ORDER BY country
