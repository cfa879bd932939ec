package sqlitecheck

import (
	"context"
	"testing"

	"github.com/quarrydata/quarry/internal/sqlguard"
)

// BenchmarkGuard measures the combined SQLite verdict, schema synthesis
// included, on a typical three-table analytics query.
func BenchmarkGuard(b *testing.B) {
	c := newChecker(b)
	ctx := context.Background()
	sql := "SELECT c.country, strftime('%Y-%m', o.ordered_at) AS month, SUM(oi.quantity * oi.unit_price) AS revenue " +
		"FROM orders o JOIN customers c ON c.id = o.customer_id JOIN order_items oi ON oi.order_id = o.id " +
		"WHERE o.status = 'completed' GROUP BY 1, 2 ORDER BY revenue DESC LIMIT 20"
	b.ReportAllocs()
	for b.Loop() {
		if v := c.Guard(ctx, sql, sqlguard.Options{}); !v.Allowed {
			b.Fatal(v)
		}
	}
}
