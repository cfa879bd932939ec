package semantic

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestExistsFilters: "customers who never ordered" and "customers with an
// order" compile to NOT IN / IN a subquery over the direct relationship, for
// lists and for counts, and give on the fixture what a hand-written query
// gives.
func TestExistsFilters(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	// A customer who never ordered and a product never sold.
	if err := conn.Exec(`INSERT INTO customers (id, name, country) VALUES (99, 'Zed', 'Germany');
INSERT INTO products (id, name, category) VALUES (99, 'Unsold', 'Books');`); err != nil {
		t.Fatal(err)
	}
	if got := query(t, conn, "SELECT COUNT(*) FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)"); got[0][0] != "1" {
		t.Fatalf("the fixture has %v customers without orders, want 1", got)
	}
	for _, tc := range []struct {
		name string
		q    Query
		want string // a hand-written query with the same result
	}{
		{"customers who never ordered", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpNone}}},
			"SELECT id FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE customer_id IS NOT NULL) ORDER BY id"},
		{"customers with an order", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpSome}}},
			"SELECT id FROM customers WHERE id IN (SELECT customer_id FROM orders) ORDER BY id"},
		{"how many customers never ordered", Query{Metrics: []string{"customers"}, Filters: []Filter{{Field: "orders", Op: OpNone}}},
			"SELECT COUNT(*) FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE customer_id IS NOT NULL)"},
		{"products never sold", Query{Rows: &RowsQuery{Entity: "products", Columns: []string{"id"}}, Filters: []Filter{{Field: "order_items", Op: OpNone}}},
			"SELECT id FROM products WHERE id NOT IN (SELECT product_id FROM order_items WHERE product_id IS NOT NULL) ORDER BY id"},
		// A condition on the one order each order line refers to: the
		// subquery joins it.
		{"products with no sales of completed orders", Query{Rows: &RowsQuery{Entity: "products", Columns: []string{"id"}}, Filters: []Filter{{Field: "order_items", Op: OpNone, Where: []Filter{{Field: "orders.status", Op: OpEq, Values: []any{"completed"}}}}}},
			"SELECT id FROM products WHERE id NOT IN (SELECT i.product_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'completed' AND i.product_id IS NOT NULL) ORDER BY id"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, " IN (SELECT ") })
	}
	// A condition on a table the related rows do not each refer to once
	// (customers have many orders) is refused.
	if _, err := Compile(m, Query{Rows: &RowsQuery{Entity: "customers"}, Filters: []Filter{{Field: "orders", Op: OpNone, Where: []Filter{{Field: "order_items.quantity", Op: OpGt, Values: []any{int64(1)}}}}}}, quarry.DialectSQLite); err == nil {
		t.Errorf("customers without orders of order lines: compiled")
	}
	// Rows reached through a chain of references, each to one row: a
	// customer's order lines through the orders, and the products those
	// lines hold ("customers who bought Electronics").
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"customers without order lines", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "order_items", Op: OpNone}}},
			"SELECT id FROM customers WHERE id NOT IN (SELECT o.customer_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.customer_id IS NOT NULL) ORDER BY id"},
		{"customers who bought Books", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "products", Op: OpSome, Where: []Filter{{Field: "products.category", Op: OpEq, Values: []any{"Books"}}}}}},
			"SELECT id FROM customers WHERE id IN (SELECT o.customer_id FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id WHERE p.category = 'Books') ORDER BY id"},
		{"how many customers never bought Toys", Query{Metrics: []string{"customers"}, Filters: []Filter{{Field: "products", Op: OpNone, Where: []Filter{{Field: "products.category", Op: OpEq, Values: []any{"Toys"}}}}}},
			"SELECT COUNT(*) FROM customers WHERE id NOT IN (SELECT o.customer_id FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id WHERE p.category = 'Toys' AND o.customer_id IS NOT NULL)"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, " IN (SELECT ") })
	}
}

// TestOverlappingPeriodsRefused: compared periods label each row with the
// first period it falls in, so overlapping ones would lose rows; the
// compiler refuses them.
func TestOverlappingPeriodsRefused(t *testing.T) {
	m := loadModel(t)
	q := Query{Metrics: []string{"orders"}, Compare: []Period{{Label: "2025", From: "2025-01-01", To: "2026-01-01"}, {Label: "December 2025", From: "2025-12-01", To: "2026-01-01"}}}
	if _, err := Compile(m, q, quarry.DialectSQLite); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlapping periods: %v", err)
	}
	q.Compare[1] = Period{Label: "2024", From: "2024-01-01", To: "2025-01-01"}
	if _, err := Compile(m, q, quarry.DialectSQLite); err != nil {
		t.Errorf("2025 vs 2024: %v", err)
	}
}
