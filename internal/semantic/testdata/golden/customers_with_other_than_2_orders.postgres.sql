SELECT customers.id
FROM customers
WHERE NOT EXISTS (SELECT 1 FROM (SELECT orders.customer_id AS k FROM orders GROUP BY orders.customer_id HAVING NOT (COUNT(*) <> 2)) AS failing WHERE failing.k = customers.id)
ORDER BY customers.id
