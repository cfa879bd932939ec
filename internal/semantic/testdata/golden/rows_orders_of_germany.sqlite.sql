SELECT orders.id, orders.ordered_at, customers.name AS customers_name
FROM orders
LEFT JOIN customers ON customers.id = orders.customer_id
WHERE customers.country = 'Germany'
  AND (orders.status <> 'pending' OR orders.status IS NULL)
ORDER BY ordered_at DESC NULLS LAST
LIMIT 2
