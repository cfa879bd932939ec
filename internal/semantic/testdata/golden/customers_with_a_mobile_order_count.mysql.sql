SELECT COUNT(customers.id) AS customers
FROM customers
WHERE customers.id IN (SELECT orders.customer_id FROM orders WHERE orders.channel = 'mobile')
