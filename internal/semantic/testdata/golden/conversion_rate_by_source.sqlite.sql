SELECT web_sessions.source AS source, AVG(web_sessions.converted) AS conversion_rate
FROM web_sessions
GROUP BY web_sessions.source
ORDER BY source
