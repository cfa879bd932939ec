SELECT country
FROM (
  SELECT customers.country AS country, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  LEFT JOIN customers ON customers.id = orders.customer_id
  WHERE orders.status = 'completed'
  GROUP BY customers.country
  ORDER BY revenue DESC NULLS LAST
  LIMIT 1
) AS q
ORDER BY revenue DESC NULLS LAST
