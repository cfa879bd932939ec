SELECT SUM(plans.monthly_price) AS mrr
FROM subscriptions
LEFT JOIN plans ON plans.id = subscriptions.plan_id
WHERE subscriptions.status = 'active'
