SELECT channel
FROM (
  SELECT orders.channel AS channel, COUNT(orders.id) AS orders
  FROM orders
  GROUP BY orders.channel
  HAVING COUNT(orders.id) > 1
  ORDER BY channel
) AS q
ORDER BY channel
