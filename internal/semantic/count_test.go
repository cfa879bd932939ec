package semantic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compile(m, tc.q, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(query(t, conn, tc.want), query(t, conn, c.SQL)); diff != "" {
				t.Errorf("(-want +got):\n%s\n%s", diff, c.SQL)
			}
			for _, d := range dialects {
				c, err := Compile(m, tc.q, d)
				if err != nil {
					t.Fatalf("%s: %v", d, err)
				}
				if !strings.Contains(c.SQL, "(SELECT COUNT(*) FROM ") {
					t.Errorf("%s: %s", d, c.SQL)
				}
			}
		})
	}
	rows := &RowsQuery{Entity: "customers", Columns: []string{"id"}}
	for _, f := range []Filter{
		{Field: "orders", Op: OpIn, Values: []any{1, 2}, Count: true},
		{Field: "orders", Op: OpGt, Count: true},
		{Field: "orders", Op: OpGt, Values: []any{"many"}, Count: true},
		{Field: "products", Op: OpGt, Values: []any{1}, Count: true}, // not joined directly
	} {
		if _, err := Compile(m, Query{Rows: rows, Filters: []Filter{f}}, quarry.DialectSQLite); err == nil {
			t.Errorf("%+v compiled; want an error", f)
		}
	}
}
