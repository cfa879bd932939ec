SELECT part_of_week, revenue
FROM (
  SELECT CASE WHEN ((CAST(strftime('%w', orders.ordered_at) AS INTEGER) + 6) % 7 + 1) >= 6 THEN 'weekend' WHEN ((CAST(strftime('%w', orders.ordered_at) AS INTEGER) + 6) % 7 + 1) >= 1 THEN 'weekday' END AS part_of_week, SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount)) AS revenue
  FROM order_items
  LEFT JOIN orders ON orders.id = order_items.order_id
  WHERE orders.status = 'completed'
  GROUP BY CASE WHEN ((CAST(strftime('%w', orders.ordered_at) AS INTEGER) + 6) % 7 + 1) >= 6 THEN 'weekend' WHEN ((CAST(strftime('%w', orders.ordered_at) AS INTEGER) + 6) % 7 + 1) >= 1 THEN 'weekday' END
) AS q
ORDER BY CASE part_of_week WHEN 'weekday' THEN 1 WHEN 'weekend' THEN 2 END
