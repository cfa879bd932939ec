SELECT name
FROM (
  SELECT customers.name, RANK() OVER (ORDER BY customers.country DESC NULLS LAST) AS quarry_rank
  FROM customers
) AS q
WHERE quarry_rank <= 1
ORDER BY quarry_rank, name
