package semantic

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestThroughFilters: a plain filter read through another entity is on
// the row each subject row reaches that way, and keeps the rows with
// none: the order lines of orders whose customer is not in Germany, where
// an order line with no order (or an order with no customer) is kept, as
// a left join keeps it.
func TestThroughFilters(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	// An order line of no order, and one of an order of no customer.
	if err := conn.Exec(`INSERT INTO orders (id, customer_id, ordered_at, status) VALUES (990, NULL, '2025-03-01', 'completed');
INSERT INTO order_items (id, order_id, product_id, quantity, unit_price) VALUES (990, NULL, 1, 2, 10), (991, 990, 1, 3, 10);`); err != nil {
		t.Fatal(err)
	}
	notGermany := Filter{Field: "customers.country", Op: OpNe, Values: []any{"Germany"}, OrNull: true, Through: "orders"}
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"units of customers not in Germany", Query{Metrics: []string{"items_sold"}, Filters: []Filter{notGermany}},
			"SELECT SUM(i.quantity) FROM order_items i LEFT JOIN orders o ON o.id = i.order_id LEFT JOIN customers c ON c.id = o.customer_id WHERE c.country IS NULL OR c.country <> 'Germany'"},
		{"order lines of customers not in Germany", Query{Rows: &RowsQuery{Entity: "order_items", Columns: []string{"id"}}, Filters: []Filter{notGermany}},
			"SELECT i.id FROM order_items i LEFT JOIN orders o ON o.id = i.order_id LEFT JOIN customers c ON c.id = o.customer_id WHERE c.country IS NULL OR c.country <> 'Germany' ORDER BY i.id"},
		// Up a chain of references to the table it goes by: each line's
		// order's customer.
		{"units of customers not in Germany, by way of customers", Query{Metrics: []string{"items_sold"}, Filters: []Filter{{Field: "customers.country", Op: OpNe, Values: []any{"Germany"}, OrNull: true, Through: "customers"}}},
			"SELECT SUM(i.quantity) FROM order_items i LEFT JOIN orders o ON o.id = i.order_id LEFT JOIN customers c ON c.id = o.customer_id WHERE c.country IS NULL OR c.country <> 'Germany'"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, " NOT IN (SELECT ") })
	}
	for _, bad := range []Filter{
		{Field: "customers.country", Op: OpNe, Values: []any{"Germany"}, Through: "nowhere"},
		{Field: "orders", Op: OpNone, Through: "orders"},
		{Field: "products.category", Op: OpEq, Values: []any{"Toys"}, Through: "orders"}, // no order refers to a product
	} {
		if c, err := Compile(m, Query{Metrics: []string{"items_sold"}, Filters: []Filter{bad}}, quarry.DialectSQLite); err == nil {
			t.Errorf("%+v compiled: %s", bad, c.SQL)
		}
	}
	// A restricted column is no more readable by way of another table:
	// not in the condition, nor as a column the way joins on.
	restricted := *m
	restricted.Restricted = []string{"customers.country"}
	if c, err := Compile(&restricted, Query{Metrics: []string{"items_sold"}, Filters: []Filter{notGermany}}, quarry.DialectSQLite); err == nil {
		t.Errorf("a restricted column read by way of orders compiled: %s", c.SQL)
	}
	restricted.Restricted = []string{"orders.customer_id"}
	if c, err := Compile(&restricted, Query{Metrics: []string{"items_sold"}, Filters: []Filter{notGermany}}, quarry.DialectSQLite); err == nil {
		t.Errorf("a way joined on a restricted column compiled: %s", c.SQL)
	}
	// Each dialect renders it.
	for _, d := range []quarry.Dialect{quarry.DialectPostgres, quarry.DialectMySQL} {
		c, err := Compile(m, Query{Metrics: []string{"items_sold"}, Filters: []Filter{notGermany}}, d)
		want := " NOT IN (SELECT "
		if d == quarry.DialectPostgres {
			want = "NOT EXISTS (SELECT 1 FROM " // an anti-join there
		}
		if err != nil || !strings.Contains(c.SQL, want) {
			t.Errorf("%s: %v %v", d, err, c)
		}
	}
}
