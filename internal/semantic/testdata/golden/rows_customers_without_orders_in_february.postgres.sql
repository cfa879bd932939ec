SELECT customers.name
FROM customers
WHERE NOT EXISTS (SELECT 1 FROM orders WHERE orders.customer_id = customers.id AND orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01')
ORDER BY customers.id
