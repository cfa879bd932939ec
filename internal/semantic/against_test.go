package semantic

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestAgainstFilters: a column compared with an aggregate of itself over
// all its entity's rows ("products priced above the average") compiles to
// an uncorrelated subquery in every dialect, keeps the outer query's other
// filters out of the average, and gives on the fixture what a hand-written
// query gives; what it cannot say is an error.
func TestAgainstFilters(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"products above the average price", Query{Rows: &RowsQuery{Entity: "products", Columns: []string{"id"}}, Filters: []Filter{{Field: "products.unit_price", Op: OpGt, Against: "avg"}}},
			"SELECT id FROM products WHERE unit_price > (SELECT AVG(unit_price) FROM products) ORDER BY id"},
		{"books below the average price of all products", Query{Rows: &RowsQuery{Entity: "products", Columns: []string{"id"}}, Filters: []Filter{
			{Field: "products.category", Op: OpEq, Values: []any{"Books"}}, {Field: "products.unit_price", Op: OpLt, Against: "avg"}}},
			"SELECT id FROM products WHERE category = 'Books' AND unit_price < (SELECT AVG(unit_price) FROM products) ORDER BY id"},
		{"how many customers ordered more items than the average line", Query{Metrics: []string{"items_sold"}, Filters: []Filter{{Field: "order_items.quantity", Op: OpGe, Against: "avg"}}},
			"SELECT SUM(quantity) FROM order_items JOIN orders ON orders.id = order_items.order_id WHERE quantity >= (SELECT AVG(quantity) FROM order_items) AND orders.status = 'completed'"},
		{"the most expensive products", Query{Rows: &RowsQuery{Entity: "products", Columns: []string{"id"}}, Filters: []Filter{{Field: "products.unit_price", Op: OpEq, Against: "max"}}},
			"SELECT id FROM products WHERE unit_price = (SELECT MAX(unit_price) FROM products) ORDER BY id"},
		// In a period, the average is of the rows in it, as the rows
		// compared are (found from outside: as of a day, the average took
		// in the rows after it).
		{"products launched before March 2025 priced above their average", Query{Rows: &RowsQuery{Entity: "products", Columns: []string{"id"}},
			Filters:   []Filter{{Field: "products.unit_price", Op: OpGt, Against: "avg"}},
			TimeRange: &TimeRange{Field: "products.launched_on", From: "2023-01-01", To: "2025-03-01"}},
			"SELECT id FROM products WHERE unit_price > (SELECT AVG(unit_price) FROM products WHERE launched_on >= '2023-01-01' AND launched_on < '2025-03-01') AND launched_on >= '2023-01-01' AND launched_on < '2025-03-01' ORDER BY id"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, "(SELECT ") })
	}
	for _, f := range []Filter{
		{Field: "products.unit_price", Op: OpGt, Against: "median"},
		{Field: "products.unit_price", Op: OpIn, Against: "avg"},
		{Field: "products.unit_price", Op: OpGt, Against: "avg", Values: []any{3}},
	} {
		if _, err := Compile(m, Query{Rows: &RowsQuery{Entity: "products"}, Filters: []Filter{f}}, quarry.DialectSQLite); err == nil {
			t.Errorf("%+v compiled; want an error", f)
		}
	}
}
