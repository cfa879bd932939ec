SELECT month, AVG(quarry_value) AS median_pages_per_session
FROM (
  SELECT CAST(date_trunc('month', web_sessions.started_at) AS DATE) AS month, web_sessions.pages AS quarry_value, ROW_NUMBER() OVER (PARTITION BY CAST(date_trunc('month', web_sessions.started_at) AS DATE) ORDER BY web_sessions.pages) AS quarry_rn, COUNT(*) OVER (PARTITION BY CAST(date_trunc('month', web_sessions.started_at) AS DATE)) AS quarry_n
  FROM web_sessions
  WHERE web_sessions.pages IS NOT NULL
) AS quarry_ranked
WHERE 2 * quarry_rn IN (quarry_n, quarry_n + 1, quarry_n + 2)
GROUP BY month
ORDER BY median_pages_per_session DESC NULLS LAST
LIMIT 1
