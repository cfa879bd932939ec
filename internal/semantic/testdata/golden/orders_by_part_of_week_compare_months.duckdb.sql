SELECT period, part_of_week, orders
FROM (
  WITH m_orders AS (
    SELECT CASE WHEN orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01' THEN 'January 2025' WHEN orders.ordered_at >= '2025-03-01' AND orders.ordered_at < '2025-04-01' THEN 'March 2025' END AS period, CASE WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 6 THEN 'weekend' WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 1 THEN 'weekday' END AS part_of_week, COUNT(orders.id) AS orders
    FROM orders
    WHERE ((orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01') OR (orders.ordered_at >= '2025-03-01' AND orders.ordered_at < '2025-04-01'))
    GROUP BY CASE WHEN orders.ordered_at >= '2025-01-01' AND orders.ordered_at < '2025-02-01' THEN 'January 2025' WHEN orders.ordered_at >= '2025-03-01' AND orders.ordered_at < '2025-04-01' THEN 'March 2025' END, CASE WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 6 THEN 'weekend' WHEN CAST(EXTRACT(ISODOW FROM orders.ordered_at) AS INTEGER) >= 1 THEN 'weekday' END
  )
  SELECT m_orders.period AS period, m_orders.part_of_week AS part_of_week, m_orders.orders AS orders
  FROM m_orders
) AS q
ORDER BY CASE period WHEN 'January 2025' THEN 1 WHEN 'March 2025' THEN 2 END, CASE part_of_week WHEN 'weekday' THEN 1 WHEN 'weekend' THEN 2 END
