package semantic

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestSemiJoinsRunOnce: a condition on related rows (some, none, a count
// of them) and a plain filter read through another table compile to a
// subquery that does not refer to the outer row, which SQLite's own plan
// runs once: no CORRELATED subquery. A correlated EXISTS over a column
// with no index ran once per outer row, 46 s where this takes 0.04 s
// (found from outside: "how many orders had a Ribeye Steak last month").
func TestSemiJoinsRunOnce(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	books := []Filter{{Field: "products.category", Op: OpEq, Values: []any{"Books"}}}
	for _, tc := range []struct {
		name string
		q    Query
	}{
		{"customers who never ordered", Query{Metrics: []string{"customers"}, Filters: []Filter{{Field: "orders", Op: OpNone}}}},
		{"customers who bought Books", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "products", Op: OpSome, Where: books}}}},
		{"customers with more than 1 order", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpGt, Count: true, Values: []any{int64(1)}}}}},
		{"customers with fewer than 2 orders", Query{Metrics: []string{"customers"}, Filters: []Filter{{Field: "orders", Op: OpLt, Count: true, Values: []any{int64(2)}}}}},
		{"units of customers not in Germany", Query{Metrics: []string{"items_sold"}, Filters: []Filter{{Field: "customers.country", Op: OpNe, Values: []any{"Germany"}, Through: "customers"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compile(m, tc.q, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			var plan []string
			for _, r := range query(t, conn, "EXPLAIN QUERY PLAN "+c.SQL) {
				plan = append(plan, r[len(r)-1])
			}
			if !strings.Contains(strings.Join(plan, "\n"), "SUBQUERY") {
				t.Fatalf("no subquery in the plan:\n%s\n%s", strings.Join(plan, "\n"), c.SQL)
			}
			if strings.Contains(strings.Join(plan, "\n"), "CORRELATED") {
				t.Errorf("a subquery runs once per outer row:\n%s\n%s", strings.Join(plan, "\n"), c.SQL)
			}
		})
	}
}

// TestSemiJoinsKeepEmptyKeys: NOT IN is read as NOT EXISTS reads. A row
// whose own key to the related rows is empty has none of them, and a
// related row whose key is empty refers to no row: neither may turn the
// NOT IN to NULL and drop rows.
func TestSemiJoinsKeepEmptyKeys(t *testing.T) {
	m := loadModel(t)
	conn := openFixture(t)
	// An order of no customer (ids below 99 are the fixture's).
	if err := conn.Exec(`INSERT INTO orders (id, customer_id, ordered_at, status, channel) VALUES (99, NULL, '2025-03-01 10:00:00', 'completed', 'web');
INSERT INTO customers (id, name, country) VALUES (99, 'Zed', 'Germany');`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"orders of no customer", Query{Rows: &RowsQuery{Entity: "orders", Columns: []string{"id"}}, Filters: []Filter{{Field: "customers", Op: OpNone}}},
			"SELECT id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id) ORDER BY id"},
		{"customers who never ordered", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpNone}}},
			"SELECT id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) ORDER BY id"},
		{"customers with fewer than 2 orders", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpLt, Count: true, Values: []any{int64(2)}}}},
			"SELECT id FROM customers c WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) < 2 ORDER BY id"},
		{"customers with no more than 0 orders", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpLe, Count: true, Values: []any{int64(0)}}}},
			"SELECT id FROM customers c WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) <= 0 ORDER BY id"},
		{"customers with other than 2 orders", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpNe, Count: true, Values: []any{int64(2)}}}},
			"SELECT id FROM customers c WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) <> 2 ORDER BY id"},
		{"customers with exactly 2 orders", Query{Rows: &RowsQuery{Entity: "customers", Columns: []string{"id"}}, Filters: []Filter{{Field: "orders", Op: OpEq, Count: true, Values: []any{int64(2)}}}},
			"SELECT id FROM customers c WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) = 2 ORDER BY id"},
	} {
		t.Run(tc.name, func(t *testing.T) { sameAsHand(t, m, conn, tc.q, tc.want, " IN (SELECT ") })
	}
}

// semiJoinCases are the golden cases of conditions on related rows, run
// on the fixture here and on PostgreSQL and MariaDB by the engine tests:
// each form semiJoin writes (IN, NOT IN, and a count's GROUP BY … HAVING
// either way), hand-computed. Customers 1, 2 and 3 have 3, 2 and 2
// orders; only 1 and 3 ordered on mobile; only 3 bought nothing of Home.
func semiJoinCases() []compileCase {
	ids := &RowsQuery{Entity: "customers", Columns: []string{"id"}}
	mobile := []Filter{{Field: "orders.channel", Op: OpEq, Values: []any{"mobile"}}}
	return []compileCase{
		{"customers_with_no_mobile_orders", Query{Rows: ids, Filters: []Filter{{Field: "orders", Op: OpNone, Where: mobile}}}, [][]string{{"2"}}},
		{"customers_who_never_bought_home", Query{Rows: ids, Filters: []Filter{{Field: "products", Op: OpNone, Where: []Filter{{Field: "products.category", Op: OpEq, Values: []any{"Home"}}}}}}, [][]string{{"3"}}},
		{"customers_with_more_than_2_orders", Query{Rows: ids, Filters: []Filter{{Field: "orders", Op: OpGt, Count: true, Values: []any{int64(2)}}}}, [][]string{{"1"}}},
		{"customers_with_other_than_2_orders", Query{Rows: ids, Filters: []Filter{{Field: "orders", Op: OpNe, Count: true, Values: []any{int64(2)}}}}, [][]string{{"1"}}},
		{"customers_with_a_mobile_order_count", Query{Metrics: []string{"customers"}, Filters: []Filter{{Field: "orders", Op: OpNe, Count: true, Values: []any{int64(0)}, Where: mobile}}}, [][]string{{"2"}}},
	}
}
