SELECT category, orders
FROM (
  SELECT category, orders, RANK() OVER (ORDER BY orders DESC NULLS LAST) AS quarry_rank
  FROM (
    SELECT category, COUNT(orders_id) AS orders
    FROM (
      SELECT DISTINCT orders.id AS orders_id, products.category AS category
      FROM orders
      LEFT JOIN order_items ON order_items.order_id = orders.id
      LEFT JOIN products ON products.id = order_items.product_id
    ) AS orders
    GROUP BY category
    ORDER BY orders DESC NULLS LAST
  ) AS r
) AS q
WHERE quarry_rank <= 1
ORDER BY orders DESC NULLS LAST, category
-- note: orders: each orders row is counted once before aggregating, because joining order_items would repeat it (fan-out)
