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
)
SELECT COALESCE(m_tickets.department, m_avg_satisfaction.department) AS department, COALESCE(m_tickets.tickets, 0) AS tickets, m_avg_satisfaction.avg_satisfaction AS avg_satisfaction
FROM m_tickets
FULL JOIN m_avg_satisfaction ON m_avg_satisfaction.department IS NOT DISTINCT FROM m_tickets.department
ORDER BY department
