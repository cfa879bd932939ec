package mysqlparse

import (
	"context"
	"testing"

	"github.com/quarrydata/quarry/internal/sqlguard"
)

// benchStatements are typical analytics statements for MySQL, of the kind
// the planner and models generate.
var benchStatements = []string{
	"SELECT COUNT(*) FROM orders WHERE status = 'completed'",
	"SELECT DATE_FORMAT(o.ordered_at, '%Y-%m') AS month, SUM(oi.quantity * oi.unit_price * (1 - oi.discount)) AS revenue FROM orders o JOIN order_items oi ON oi.order_id = o.id WHERE o.status = 'completed' GROUP BY month ORDER BY month",
	"SELECT c.country, COUNT(DISTINCT c.id) AS customers, ROUND(AVG(o.total), 2) AS avg_order FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.country HAVING COUNT(*) > 10 ORDER BY customers DESC LIMIT 10",
	"WITH monthly AS (SELECT customer_id, DATE_FORMAT(ordered_at, '%Y-%m') AS m, COUNT(*) AS n FROM orders GROUP BY 1, 2) SELECT m, AVG(n) AS avg_orders, MAX(n) FROM monthly GROUP BY m ORDER BY m",
	"SELECT p.category, p.name, SUM(oi.quantity) AS units, RANK() OVER (PARTITION BY p.category ORDER BY SUM(oi.quantity) DESC) AS rnk FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category, p.name",
	"SELECT e.name, m.name AS manager FROM employees e LEFT JOIN employees m ON m.id = e.manager_id WHERE e.department = 'Engineering' ORDER BY e.hired_on",
	"SELECT priority, SUM(CASE WHEN closed_at IS NULL THEN 1 ELSE 0 END) AS open, AVG(satisfaction) AS csat FROM support_tickets GROUP BY priority",
	"SELECT source, device, SUM(converted) * 1.0 / COUNT(*) AS rate FROM web_sessions WHERE started_at >= CURDATE() - INTERVAL 90 DAY GROUP BY source, device ORDER BY rate DESC",
}

// BenchmarkMySQLCheck measures the engine check alone on one core.
func BenchmarkMySQLCheck(b *testing.B) {
	bytes := 0
	for _, s := range benchStatements {
		bytes += len(s)
	}
	b.SetBytes(int64(bytes / len(benchStatements)))
	b.ReportAllocs()
	c := New(DefaultSQLMode)
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if v := c.Check(ctx, benchStatements[i%len(benchStatements)], sqlguard.Options{}); !v.Allowed {
			b.Fatal(v)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "stmts/s")
}
