SELECT country, revenue
FROM (
  SELECT country, revenue, RANK() OVER (ORDER BY revenue NULLS LAST) AS quarry_rank
  FROM (
    SELECT customers.country AS country, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
    FROM order_items
    LEFT JOIN orders ON orders.id = order_items.order_id
    LEFT JOIN customers ON customers.id = orders.customer_id
    WHERE orders.status = 'completed'
    GROUP BY customers.country
    ORDER BY revenue NULLS LAST
  ) AS r
) AS q
WHERE quarry_rank <= 1
ORDER BY revenue NULLS LAST, country
