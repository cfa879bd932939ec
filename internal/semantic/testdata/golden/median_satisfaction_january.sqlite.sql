SELECT AVG(quarry_value) AS median_satisfaction
FROM (
  SELECT support_tickets.satisfaction AS quarry_value, ROW_NUMBER() OVER (ORDER BY support_tickets.satisfaction) AS quarry_rn, COUNT(*) OVER () AS quarry_n
  FROM support_tickets
  WHERE support_tickets.satisfaction IS NOT NULL
    AND support_tickets.opened_at >= '2025-01-01'
    AND support_tickets.opened_at < '2025-02-01'
) AS quarry_ranked
WHERE 2 * quarry_rn IN (quarry_n, quarry_n + 1, quarry_n + 2)
