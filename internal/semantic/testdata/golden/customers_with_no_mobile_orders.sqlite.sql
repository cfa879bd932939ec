SELECT customers.id
FROM customers
WHERE customers.id NOT IN (SELECT orders.customer_id FROM orders WHERE orders.customer_id IS NOT NULL AND orders.channel = 'mobile')
ORDER BY customers.id
