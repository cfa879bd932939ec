SELECT customers.id
FROM customers
WHERE customers.id NOT IN (SELECT orders.customer_id FROM orders WHERE orders.customer_id IS NOT NULL GROUP BY orders.customer_id HAVING NOT (COUNT(*) <> 2))
ORDER BY customers.id
