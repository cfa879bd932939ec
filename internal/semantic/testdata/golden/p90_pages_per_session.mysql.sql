SELECT SUM(quarry_value * CASE WHEN 100 * quarry_rn <= 90 * (quarry_n - 1) + 100 THEN 100 * quarry_rn - 90 * (quarry_n - 1) ELSE 90 * (quarry_n - 1) + 200 - 100 * quarry_rn END) / 100.0 AS p90_pages_per_session
FROM (
  SELECT web_sessions.pages AS quarry_value, ROW_NUMBER() OVER (ORDER BY web_sessions.pages) AS quarry_rn, COUNT(*) OVER () AS quarry_n
  FROM web_sessions
  WHERE web_sessions.pages IS NOT NULL
) AS quarry_ranked
WHERE 100 * quarry_rn < 90 * (quarry_n - 1) + 200 AND 90 * (quarry_n - 1) < 100 * quarry_rn
