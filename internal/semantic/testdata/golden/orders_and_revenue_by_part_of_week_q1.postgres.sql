SELECT part_of_week, orders, revenue
FROM (
  WITH m_orders AS (
    SELECT CASE WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 6 THEN 'weekend' WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 1 THEN 'weekday' END AS part_of_week, COUNT(orders.id) AS orders
    FROM orders
    WHERE orders.ordered_at >= '2025-01-01'
      AND orders.ordered_at < '2025-04-01'
    GROUP BY CASE WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 6 THEN 'weekend' WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 1 THEN 'weekday' END
  ),
  m_revenue AS (
    SELECT CASE WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 6 THEN 'weekend' WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 1 THEN 'weekday' END AS part_of_week, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
    FROM order_items
    LEFT JOIN orders ON orders.id = order_items.order_id
    WHERE orders.status = 'completed'
      AND orders.ordered_at >= '2025-01-01'
      AND orders.ordered_at < '2025-04-01'
    GROUP BY CASE WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 6 THEN 'weekend' WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 1 THEN 'weekday' END
  ),
  dim_keys AS (
    SELECT part_of_week FROM m_orders
    UNION
    SELECT part_of_week FROM m_revenue
  )
  SELECT dim_keys.part_of_week AS part_of_week, COALESCE(m_orders.orders, 0) AS orders, COALESCE(m_revenue.revenue, 0) AS revenue
  FROM dim_keys
  LEFT JOIN m_orders ON m_orders.part_of_week IS NOT DISTINCT FROM dim_keys.part_of_week
  LEFT JOIN m_revenue ON m_revenue.part_of_week IS NOT DISTINCT FROM dim_keys.part_of_week
) AS q
ORDER BY CASE part_of_week WHEN 'weekday' THEN 1 WHEN 'weekend' THEN 2 END
