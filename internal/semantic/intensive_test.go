package semantic

import "testing"

// TestIntensive: averages and ratios of aggregates do not grow with the
// days a period holds; sums, counts, their sums and differences, a sum
// over a constant, MIN and MAX do, or are not read.
func TestIntensive(t *testing.T) {
	m := &Model{Metrics: []Metric{
		{Name: "revenue", Expr: "SUM(order_items.quantity * order_items.unit_price * (1 - order_items.discount))"},
		{Name: "orders", Expr: "COUNT(orders.id)"},
		{Name: "buyers", Expr: "COUNT(DISTINCT orders.customer_id)"},
		{Name: "refunds", Expr: "SUM(CASE WHEN orders.status = 'refunded' THEN orders.total ELSE 0 END)"},
		{Name: "aov", Derived: "{revenue} / {orders}"},
		{Name: "refund_rate", Derived: "{refunds} / {revenue}", Format: "percent"},
		{Name: "kept_rate", Derived: "1 - {refund_rate}", Format: "percent"},
		{Name: "net", Derived: "{revenue} - {refunds}"},
		{Name: "conversion", Expr: "AVG(web_sessions.converted)", Format: "percent"},
		{Name: "share_paid", Expr: "100.0 * SUM(CASE WHEN x.paid THEN 1 ELSE 0 END) / COUNT(*)"},
		{Name: "rounded", Expr: "ROUND(SUM(a.x) / NULLIF(COUNT(a.id), 0), 2)"},
		{Name: "thousands", Expr: "SUM(a.x) / 1000"},
		{Name: "top_price", Expr: "MAX(products.price)"},
		{Name: "odd_pct", Expr: "MAX(a.x)", Format: "percent"},
		{Name: "sum_pct", Expr: "SUM(a.x)", Format: "percent"},
		{Name: "loop", Derived: "{loop} / {orders}"},
		{Name: "per_buyer", Derived: "{revenue} / {buyers}"},
	}}
	for name, want := range map[string]bool{
		"revenue": false, "orders": false, "buyers": false, "refunds": false,
		"aov": true, "refund_rate": true, "kept_rate": true, "net": false,
		"conversion": true, "share_paid": true, "rounded": true, "thousands": false,
		"top_price": false, "odd_pct": true, "sum_pct": false, "loop": false,
		"per_buyer": true, "missing": false,
	} {
		if got := m.Intensive(name); got != want {
			t.Errorf("Intensive(%s) = %v; want %v", name, got, want)
		}
	}
}
