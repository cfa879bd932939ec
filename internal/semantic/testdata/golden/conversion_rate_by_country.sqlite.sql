SELECT customers.country AS country, AVG(web_sessions.converted) AS conversion_rate
FROM web_sessions
LEFT JOIN customers ON customers.id = web_sessions.customer_id
GROUP BY customers.country
ORDER BY country
