SELECT DISTINCT customers.country
FROM customers
ORDER BY country NULLS LAST
