SELECT SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
FROM order_items
LEFT JOIN orders ON orders.id = order_items.order_id
LEFT JOIN products ON products.id = order_items.product_id
WHERE orders.status = 'completed'
  AND LOWER(products.name) LIKE 'toy!_b%' ESCAPE '!'
