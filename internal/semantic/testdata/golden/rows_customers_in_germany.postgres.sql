SELECT customers.name, customers.country, customers.city, customers.segment, customers.signup_date
FROM customers
WHERE customers.country = 'Germany'
ORDER BY name NULLS LAST
