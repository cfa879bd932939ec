SELECT customers.id
FROM customers
WHERE NOT EXISTS (SELECT 1 FROM orders WHERE orders.customer_id = customers.id AND orders.channel = 'mobile')
ORDER BY customers.id
