WITH m_active_subscribers AS (
  SELECT plans.name AS plan, COUNT(DISTINCT subscriptions.customer_id) AS active_subscribers
  FROM subscriptions
  LEFT JOIN plans ON plans.id = subscriptions.plan_id
  WHERE subscriptions.status = 'active'
  GROUP BY plans.name
),
m_mrr AS (
  SELECT plans.name AS plan, SUM(plans.monthly_price) AS mrr
  FROM subscriptions
  LEFT JOIN plans ON plans.id = subscriptions.plan_id
  WHERE subscriptions.status = 'active'
  GROUP BY plans.name
)
SELECT COALESCE(m_active_subscribers.plan, m_mrr.plan) AS plan, COALESCE(m_active_subscribers.active_subscribers, 0) AS active_subscribers, COALESCE(m_mrr.mrr, 0) AS mrr
FROM m_active_subscribers
FULL JOIN m_mrr ON m_mrr.plan IS NOT DISTINCT FROM m_active_subscribers.plan
ORDER BY plan
