SELECT products.name, products.category, products.unit_price, products.unit_cost, products.launched_on, products.discontinued
FROM products
WHERE products.launched_on >= '2025-01-01'
  AND products.launched_on < '2026-01-01'
ORDER BY name NULLS LAST
