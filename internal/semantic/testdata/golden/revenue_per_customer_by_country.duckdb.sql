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
)
SELECT COALESCE(m_revenue.country, m_customers.country) AS country, COALESCE(m_revenue.revenue, 0) / NULLIF(COALESCE(m_customers.customers, 0), 0) AS revenue_per_customer
FROM m_revenue
FULL JOIN m_customers ON m_customers.country IS NOT DISTINCT FROM m_revenue.country
ORDER BY country
