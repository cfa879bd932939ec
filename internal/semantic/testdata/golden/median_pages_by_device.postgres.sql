SELECT device, AVG(quarry_value) AS median_pages_per_session
FROM (
  SELECT web_sessions.device AS device, web_sessions.pages AS quarry_value, ROW_NUMBER() OVER (PARTITION BY web_sessions.device ORDER BY web_sessions.pages) AS quarry_rn, COUNT(*) OVER (PARTITION BY web_sessions.device) AS quarry_n
  FROM web_sessions
  WHERE web_sessions.pages IS NOT NULL
) AS quarry_ranked
WHERE 2 * quarry_rn IN (quarry_n, quarry_n + 1, quarry_n + 2)
GROUP BY device
ORDER BY device
