SELECT customers.name
FROM customers
WHERE (SELECT COUNT(*) FROM orders WHERE orders.customer_id = customers.id AND orders.ordered_at >= '2025-02-01' AND orders.ordered_at < '2025-03-01') < 1
ORDER BY customers.id
