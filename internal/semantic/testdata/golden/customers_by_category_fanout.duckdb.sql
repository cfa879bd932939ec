SELECT category, COUNT(customers_id) AS customers
FROM (
  SELECT DISTINCT customers.id AS customers_id, products.category AS category
  FROM customers
  LEFT JOIN orders ON orders.customer_id = customers.id
  LEFT JOIN order_items ON order_items.order_id = orders.id
  LEFT JOIN products ON products.id = order_items.product_id
) AS customers
GROUP BY category
ORDER BY category
-- note: customers: each customers row is counted once before aggregating, because joining orders, order_items would repeat it (fan-out)
