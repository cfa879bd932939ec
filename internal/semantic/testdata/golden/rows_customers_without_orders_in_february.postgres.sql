SELECT customers.name
FROM customers
WHERE customers.id NOT IN (SELECT orders.customer_id FROM orders WHERE orders.customer_id IS NOT NULL AND orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01')
ORDER BY customers.id
