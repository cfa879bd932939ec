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
),
dim_keys AS (
  SELECT plan FROM m_active_subscribers
  UNION
  SELECT plan FROM m_mrr
)
SELECT dim_keys.plan AS plan, COALESCE(m_active_subscribers.active_subscribers, 0) AS active_subscribers, COALESCE(m_mrr.mrr, 0) AS mrr
FROM dim_keys
LEFT JOIN m_active_subscribers ON m_active_subscribers.plan IS NOT DISTINCT FROM dim_keys.plan
LEFT JOIN m_mrr ON m_mrr.plan IS NOT DISTINCT FROM dim_keys.plan
ORDER BY plan
