SELECT customers.id
FROM customers
WHERE customers.id IN (SELECT orders.customer_id FROM orders GROUP BY orders.customer_id HAVING COUNT(*) > 2)
ORDER BY customers.id
