SELECT category, AVG(quarry_value) AS median_satisfaction
FROM (
  SELECT category, support_tickets_satisfaction AS quarry_value, ROW_NUMBER() OVER (PARTITION BY category ORDER BY support_tickets_satisfaction) AS quarry_rn, COUNT(*) OVER (PARTITION BY category) AS quarry_n
  FROM (
    SELECT DISTINCT support_tickets.id AS support_tickets_id, products.category AS category, support_tickets.satisfaction AS support_tickets_satisfaction
    FROM support_tickets
    LEFT JOIN customers ON customers.id = support_tickets.customer_id
    LEFT JOIN orders ON orders.customer_id = customers.id
    LEFT JOIN order_items ON order_items.order_id = orders.id
    LEFT JOIN products ON products.id = order_items.product_id
    WHERE support_tickets.satisfaction IS NOT NULL
  ) AS support_tickets
) AS quarry_ranked
WHERE 2 * quarry_rn IN (quarry_n, quarry_n + 1, quarry_n + 2)
GROUP BY category
ORDER BY category
-- note: avg_satisfaction: each support_tickets row is counted once before aggregating, because joining orders, order_items would repeat it (fan-out)
