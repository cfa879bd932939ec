WITH m_tickets AS (
  SELECT employees.department AS department, COUNT(support_tickets.id) AS tickets
  FROM support_tickets
  LEFT JOIN employees ON employees.id = support_tickets.assignee_id
  GROUP BY employees.department
),
m_avg_satisfaction AS (
  SELECT employees.department AS department, AVG(support_tickets.satisfaction) AS avg_satisfaction
  FROM support_tickets
  LEFT JOIN employees ON employees.id = support_tickets.assignee_id
  GROUP BY employees.department
),
dim_keys AS (
  SELECT department FROM m_tickets
  UNION
  SELECT department FROM m_avg_satisfaction
)
SELECT dim_keys.department AS department, COALESCE(m_tickets.tickets, 0) AS tickets, m_avg_satisfaction.avg_satisfaction AS avg_satisfaction
FROM dim_keys
LEFT JOIN m_tickets ON m_tickets.department IS NOT DISTINCT FROM dim_keys.department
LEFT JOIN m_avg_satisfaction ON m_avg_satisfaction.department IS NOT DISTINCT FROM dim_keys.department
ORDER BY department
