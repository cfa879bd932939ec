package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

func TestAdditive(t *testing.T) {
	for expr, want := range map[string]string{
		"SUM(order_items.quantity * (1 - order_items.discount))": "sum",
		"COUNT(orders.id)":                   "count",
		"count(distinct orders.customer_id)": "distinct",
		"SUM(a.x) / SUM(a.y)":                "",
		"AVG(a.x)":                           "",
		"SUM(a.x) - SUM(a.y)":                "",
	} {
		if got := Additive(expr); got != want {
			t.Errorf("Additive(%q) = %q, want %q", expr, got, want)
		}
	}
}

// TestFanOuts: a measure summed or counted over child rows while it
// measures the parent is at the wrong grain; measures of the rows
// themselves, or mixing the row's own columns with its parent's, are not.
func TestFanOuts(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "customers"}, {Name: "orders"}, {Name: "order_items"}, {Name: "products"}},
		Relationships: []semantic.Relationship{
			{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "orders", FromColumn: "id", To: "order_items", ToColumn: "order_id", Cardinality: semantic.OneToMany},
			{From: "order_items", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{
			{Name: "orders_by_item", Entity: "order_items", Expr: "COUNT(orders.id)"},
			{Name: "shipping_by_item", Entity: "order_items", Expr: "SUM(orders.shipping)"},
			{Name: "customers_by_item", Entity: "order_items", Expr: "COUNT(customers.id)"},
			{Name: "distinct_orders", Entity: "order_items", Expr: "COUNT(DISTINCT orders.id)"},
			{Name: "revenue", Entity: "order_items", Expr: "SUM(order_items.quantity * products.price)"},
			{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"},
			{Name: "mrr", Entity: "order_items", Expr: "SUM(products.price)", Filters: []string{"order_items.status = 'active'"}},
			{Name: "orders_by_active_item", Entity: "order_items", Expr: "COUNT(orders.id)", Filters: []string{"order_items.status = 'active'"}},
			{Name: "items_per_order", Entity: "orders", Expr: "COUNT(order_items.id)"},
		},
	}
	for name, want := range map[string]string{
		"orders_by_item":        "each orders row counts once per order_items row",
		"shipping_by_item":      "a fan-out",
		"customers_by_item":     "belongs to customers",
		"distinct_orders":       "",
		"revenue":               "",
		"orders":                "",
		"mrr":                   "",
		"orders_by_active_item": "a fan-out",
		"items_per_order":       "",
	} {
		got := strings.Join(FanOuts(m, &semantic.Query{Metrics: []string{name}}), "; ")
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("FanOuts(%s) = %q, want %q", name, got, want)
		}
	}
}
