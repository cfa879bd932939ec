package semantic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestCountFilters: a condition on how many rows of a related table each
// row has compiles to a correlated COUNT that is 0 for rows with none, in
// every dialect, and gives on the fixture what a hand-written query
// (with an outer join, so that zero counts) gives.
func TestCountFilters(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	if err := conn.Exec(`INSERT INTO customers (id, name, country) VALUES (99, 'Zed', 'Germany');`); err != nil {
		t.Fatal(err)
	}
	perCustomer := "SELECT c.id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id HAVING COUNT(o.id) %s ORDER BY c.id"
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"customers with fewer than 2 orders", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpLt, Values: []any{2}, Count: true}}},
			strings.Replace(perCustomer, "%s", "< 2", 1)},
		{"customers with more than 1 order", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpGt, Values: []any{1}, Count: true}}},
			strings.Replace(perCustomer, "%s", "> 1", 1)},
		{"customers with exactly 0 orders", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpEq, Values: []any{0}, Count: true}}},
			strings.Replace(perCustomer, "%s", "= 0", 1)},
		{"how many customers have at most 1 order", Query{Metrics: []string{"customers"}, Filters: []Filter{{Field: "orders", Op: OpLe, Values: []any{1}, Count: true}}},
			"SELECT COUNT(*) FROM (" + strings.Replace(strings.Replace(perCustomer, "%s", "<= 1", 1), " ORDER BY c.id", "", 1) + ")"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, " IN (SELECT ") })
	}
	rows := &RowsQuery{Entity: "customers", Columns: []string{"id"}}
	for _, f := range []Filter{
		{Field: "orders", Op: OpIn, Values: []any{1, 2}, Count: true},
		{Field: "orders", Op: OpGt, Count: true},
		{Field: "orders", Op: OpGt, Values: []any{"many"}, Count: true},
		{Field: "products", Op: OpGt, Values: []any{1}, Count: true}, // through order lines: their count, not the products
	} {
		if _, err := Compile(m, Query{Rows: rows, Filters: []Filter{f}}, quarry.DialectSQLite); err == nil {
			t.Errorf("%+v compiled; want an error", f)
		}
	}
}

// TestRelatedWhere: a filter on having (or lacking) rows of a related
// table that meet conditions — directly, or through the one table that
// links the two — gives on the fixture what a hand-written query gives,
// and refuses conditions that are not on the related rows.
func TestRelatedWhere(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	books := []Filter{{Field: "products.category", Op: OpEq, Values: []any{"Books"}}}
	mobile := []Filter{{Field: "orders.channel", Op: OpEq, Values: []any{"mobile"}}}
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"customers with a mobile order", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpSome, Where: mobile}}},
			"SELECT DISTINCT c.id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.channel = 'mobile' ORDER BY c.id"},
		{"customers with no mobile order", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpNone, Where: mobile}}},
			"SELECT id FROM customers WHERE id NOT IN (SELECT customer_id FROM orders WHERE channel = 'mobile' AND customer_id IS NOT NULL) ORDER BY id"},
		{"orders with a Books product (through order_items)", Query{Rows: &RowsQuery{Entity: "orders", Columns: []string{"id"}}, Filters: []Filter{{Field: "products", Op: OpSome, Where: books}}},
			"SELECT DISTINCT o.id FROM orders o JOIN order_items i ON i.order_id = o.id JOIN products p ON p.id = i.product_id WHERE p.category = 'Books' ORDER BY o.id"},
		{"how many orders have no Books product", Query{Metrics: []string{"orders"}, Filters: []Filter{{Field: "products", Op: OpNone, Where: books}}},
			"SELECT COUNT(*) FROM orders o WHERE o.id NOT IN (SELECT i.order_id FROM order_items i JOIN products p ON p.id = i.product_id WHERE p.category = 'Books')"},
		{"customers with more than 0 mobile orders", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpGt, Values: []any{0}, Count: true, Where: mobile}}},
			"SELECT c.id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.channel = 'mobile' GROUP BY c.id HAVING COUNT(*) > 0 ORDER BY c.id"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, "(SELECT ") })
	}
	rows := &RowsQuery{Entity: "customers", Columns: []string{"id"}}
	for _, f := range []Filter{
		{Field: "orders", Op: OpSome, Where: books},                                                         // a condition on another table
		{Field: "orders", Op: OpSome, Where: []Filter{{Field: "order_items", Op: OpSome}}},                  // nested
		{Field: "orders", Op: OpSome, Where: []Filter{{Field: "orders.channel", Op: OpGt, Against: "avg"}}}, // against
	} {
		if _, err := Compile(m, Query{Rows: rows, Filters: []Filter{f}}, quarry.DialectSQLite); err == nil {
			t.Errorf("%+v compiled; want an error", f)
		}
	}
}

// sameAsHand compiles q for SQLite and checks that it gives on the
// fixture what a hand-written query gives (which must return rows, or the
// comparison proves nothing), and that every dialect compiles it with the
// shape of SQL the test is about.
func sameAsHand(t *testing.T, m *Model, conn *sqlite3.Conn, q Query, want, shape string) {
	t.Helper()
	c, err := Compile(m, q, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	rows := query(t, conn, want)
	if len(rows) == 0 {
		t.Fatalf("the hand-written query returns nothing on the fixture: %s", want)
	}
	if diff := cmp.Diff(rows, query(t, conn, c.SQL)); diff != "" {
		t.Errorf("(-want +got):\n%s\n%s", diff, c.SQL)
	}
	for _, d := range dialects {
		c, err := Compile(m, q, d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		want := shape
		if d == quarry.DialectPostgres && strings.Contains(c.SQL, "NOT EXISTS (SELECT 1 FROM ") {
			// PostgreSQL runs NOT EXISTS as an anti-join, and NOT IN a
			// large subquery once per row: none is NOT EXISTS there.
			want = "NOT EXISTS (SELECT 1 FROM "
		}
		if !strings.Contains(c.SQL, want) {
			t.Errorf("%s: no %q in %s", d, want, c.SQL)
		}
	}
}
