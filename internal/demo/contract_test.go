package demo

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"
)

// The demo contract: tables, columns and declared types, in order.
var contractColumns = map[string][]string{
	"customers":       {"id INTEGER", "name TEXT", "email TEXT", "country TEXT", "city TEXT", "segment TEXT", "signup_date DATE", "referred_by INTEGER"},
	"products":        {"id INTEGER", "name TEXT", "category TEXT", "unit_price REAL", "unit_cost REAL", "launched_on DATE", "discontinued INTEGER"},
	"orders":          {"id INTEGER", "customer_id INTEGER", "ordered_at TIMESTAMP", "status TEXT", "channel TEXT", "discount_code TEXT"},
	"order_items":     {"id INTEGER", "order_id INTEGER", "product_id INTEGER", "quantity INTEGER", "unit_price REAL", "discount REAL"},
	"plans":           {"id INTEGER", "name TEXT", "monthly_price REAL"},
	"subscriptions":   {"id INTEGER", "customer_id INTEGER", "plan_id INTEGER", "started_on DATE", "ended_on DATE", "status TEXT"},
	"employees":       {"id INTEGER", "name TEXT", "title TEXT", "department TEXT", "manager_id INTEGER", "hired_on DATE", "salary REAL"},
	"support_tickets": {"id INTEGER", "customer_id INTEGER", "assignee_id INTEGER", "opened_at TIMESTAMP", "closed_at TIMESTAMP", "priority TEXT", "category TEXT", "satisfaction INTEGER"},
	"web_sessions":    {"id INTEGER", "customer_id INTEGER", "started_at TIMESTAMP", "source TEXT", "device TEXT", "pages INTEGER", "converted INTEGER"},
}

// The contract's foreign keys as "table.column -> table.column".
var contractForeignKeys = []string{
	"customers.referred_by -> customers.id",
	"employees.manager_id -> employees.id",
	"order_items.order_id -> orders.id",
	"order_items.product_id -> products.id",
	"orders.customer_id -> customers.id",
	"subscriptions.customer_id -> customers.id",
	"subscriptions.plan_id -> plans.id",
	"support_tickets.assignee_id -> employees.id",
	"support_tickets.customer_id -> customers.id",
	"web_sessions.customer_id -> customers.id",
}

// The contract's approximate row counts.
var contractRows = map[string]int64{
	"customers": 5000, "products": 200, "orders": 60000, "order_items": 150000, "plans": 3,
	"subscriptions": 2500, "employees": 60, "support_tickets": 8000, "web_sessions": 300000,
}

func TestSchema(t *testing.T) {
	db := openTest(t, fixture.path)
	tables := queryColumn(t, db, "SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	var want []string
	for name := range contractColumns {
		want = append(want, name)
	}
	if diff := cmp.Diff(sorted(want), tables); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	var fks []string
	for name, cols := range contractColumns {
		var got []string
		for _, r := range queryRows(t, db, "SELECT name, type, pk FROM pragma_table_info('"+name+"') ORDER BY cid") {
			got = append(got, r[0]+" "+r[1])
			if (r[0] == "id") != (r[2] == "1") {
				t.Errorf("%s.%s: pk = %s", name, r[0], r[2])
			}
		}
		if diff := cmp.Diff(cols, got); diff != "" {
			t.Errorf("%s columns (-want +got):\n%s", name, diff)
		}
		for _, r := range queryRows(t, db, "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list('"+name+"')") {
			fks = append(fks, name+"."+r[0]+" -> "+r[1]+"."+r[2])
		}
	}
	if diff := cmp.Diff(contractForeignKeys, sorted(fks)); diff != "" {
		t.Errorf("foreign keys (-want +got):\n%s", diff)
	}
	// Every foreign key column and every time column analytics group by
	// has an index.
	indexed := map[string]bool{}
	for _, r := range queryRows(t, db, "SELECT m.tbl_name, i.name FROM sqlite_schema m, pragma_index_info(m.name) i WHERE m.type='index'") {
		indexed[r[0]+"."+r[1]] = true
	}
	for _, fk := range contractForeignKeys {
		col := strings.Split(fk, " ")[0]
		if !indexed[col] {
			t.Errorf("no index on %s", col)
		}
	}
	for _, col := range []string{"orders.ordered_at", "support_tickets.opened_at", "web_sessions.started_at", "customers.signup_date"} {
		if !indexed[col] {
			t.Errorf("no index on %s", col)
		}
	}
}

func TestRowCounts(t *testing.T) { checkRowCounts(t, openTest(t, fixture.path)) }

func checkRowCounts(t *testing.T, db *sqlite3.Conn) {
	t.Helper()
	for name, want := range contractRows {
		got := queryInt(t, db, "SELECT count(*) FROM "+name)
		if math.Abs(float64(got-want)) > 0.1*float64(want) {
			t.Errorf("%s has %d rows, want about %d", name, got, want)
		}
	}
}

func TestValueSets(t *testing.T) {
	db := openTest(t, fixture.path)
	tests := []struct {
		query string
		want  []string
	}{
		{"SELECT DISTINCT segment FROM customers", []string{"business", "consumer"}},
		{"SELECT DISTINCT category FROM products", []string{"Beauty", "Books", "Electronics", "Garden", "Grocery", "Home", "Sports", "Toys"}},
		{"SELECT DISTINCT discontinued FROM products", []string{"0", "1"}},
		{"SELECT DISTINCT status FROM orders", []string{"cancelled", "completed", "pending", "refunded"}},
		{"SELECT DISTINCT channel FROM orders", []string{"mobile", "store", "web"}},
		{"SELECT name FROM plans", []string{"Basic", "Plus", "Premium"}},
		{"SELECT DISTINCT status FROM subscriptions", []string{"active", "cancelled", "paused"}},
		{"SELECT DISTINCT priority FROM support_tickets", []string{"high", "low", "normal", "urgent"}},
		{"SELECT DISTINCT source FROM web_sessions", []string{"ads", "email", "organic", "referral", "social"}},
		{"SELECT DISTINCT device FROM web_sessions", []string{"desktop", "mobile", "tablet"}},
		{"SELECT DISTINCT converted FROM web_sessions", []string{"0", "1"}},
		{"SELECT DISTINCT satisfaction FROM support_tickets WHERE satisfaction IS NOT NULL", []string{"1", "2", "3", "4", "5"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, sorted(queryColumn(t, db, tt.query))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.query, diff)
		}
	}

	countries := queryColumn(t, db, "SELECT DISTINCT country FROM customers")
	if n := len(countries); n < 13 || n > 17 {
		t.Errorf("%d countries, want about 15: %v", n, countries)
	}
	if !slices.Contains(countries, "Germany") {
		t.Errorf("Germany is not among the countries %v", countries)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM (SELECT city FROM customers GROUP BY city HAVING count(DISTINCT country) > 1)"); n != 0 {
		t.Errorf("%d cities appear in more than one country", n)
	}
	if n := len(queryColumn(t, db, "SELECT DISTINCT category FROM support_tickets")); n < 4 || n > 8 {
		t.Errorf("%d ticket categories, want a handful", n)
	}
	if !slices.Contains(queryColumn(t, db, "SELECT DISTINCT department FROM employees"), "Engineering") {
		t.Error("no Engineering department")
	}

	// Checks that must find nothing.
	none := []string{
		"SELECT count(*) FROM customers WHERE email NOT LIKE '%_@%example%'",
		"SELECT count(*) FROM customers WHERE name NOT LIKE '% %'",
		"SELECT count(*) FROM products WHERE NOT (unit_cost > 0 AND unit_cost < unit_price)",
		"SELECT count(*) FROM (SELECT name FROM products GROUP BY name HAVING count(*) > 1)",
		"SELECT count(*) FROM order_items WHERE discount < 0 OR discount > 0.5 OR quantity < 1 OR unit_price <= 0",
		"SELECT count(*) FROM plans WHERE monthly_price <= 0",
		"SELECT count(*) FROM employees WHERE salary <= 0",
		"SELECT count(*) FROM web_sessions WHERE pages < 1",
		"SELECT count(*) FROM web_sessions WHERE converted = 1 AND pages < 2",
		// Statuses agree with end dates.
		"SELECT count(*) FROM subscriptions WHERE (status = 'cancelled') <> (ended_on IS NOT NULL)",
		"SELECT count(*) FROM subscriptions WHERE ended_on < started_on",
		// Nothing happens before it can.
		"SELECT count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE date(o.ordered_at) < c.signup_date",
		"SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id WHERE date(o.ordered_at) < p.launched_on",
		"SELECT count(*) FROM subscriptions s JOIN customers c ON c.id = s.customer_id WHERE s.started_on < c.signup_date",
		"SELECT count(*) FROM support_tickets t JOIN customers c ON c.id = t.customer_id WHERE date(t.opened_at) < c.signup_date",
		"SELECT count(*) FROM web_sessions w JOIN customers c ON c.id = w.customer_id WHERE date(w.started_at) < c.signup_date",
		"SELECT count(*) FROM support_tickets WHERE closed_at < opened_at",
		"SELECT count(*) FROM support_tickets WHERE closed_at IS NULL AND satisfaction IS NOT NULL",
		"SELECT count(*) FROM customers WHERE referred_by >= id",
		// One subscription at a time per customer.
		"SELECT count(*) FROM subscriptions a JOIN subscriptions b ON a.customer_id = b.customer_id AND a.id < b.id WHERE b.started_on <= coalesce(a.ended_on, '9999') AND a.started_on <= coalesce(b.ended_on, '9999')",
		// Item prices are close to the product's price at the time.
		"SELECT count(*) FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.unit_price < 0.8 * p.unit_price OR i.unit_price > 1.05 * p.unit_price",
	}
	for _, q := range none {
		if n := queryInt(t, db, q); n != 0 {
			t.Errorf("%s = %d, want 0", q, n)
		}
	}
}

func TestDateRanges(t *testing.T) {
	checkDateRanges(t, openTest(t, fixture.path), "2023-07-01", "2026-06-30")
}

// checkDateRanges checks that every date and timestamp is well formed and
// lies within [first, last].
func checkDateRanges(t *testing.T, db *sqlite3.Conn, first, last string) {
	t.Helper()
	const day = "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]"
	const clock = " [0-2][0-9]:[0-5][0-9]:[0-5][0-9]"
	cols := []struct{ table, col, pattern string }{
		{"customers", "signup_date", day},
		{"products", "launched_on", day},
		{"orders", "ordered_at", day + clock},
		{"subscriptions", "started_on", day},
		{"subscriptions", "ended_on", day},
		{"employees", "hired_on", day},
		{"support_tickets", "opened_at", day + clock},
		{"support_tickets", "closed_at", day + clock},
		{"web_sessions", "started_at", day + clock},
	}
	for _, c := range cols {
		q := "SELECT count(*) FROM " + c.table + " WHERE " + c.col + " IS NOT NULL AND (" +
			c.col + " NOT GLOB '" + c.pattern + "' OR datetime(" + c.col + ") IS NULL OR " +
			c.col + " < '" + first + "' OR substr(" + c.col + ", 1, 10) > '" + last + "')"
		if n := queryInt(t, db, q); n != 0 {
			t.Errorf("%s.%s: %d values malformed or outside %s .. %s", c.table, c.col, n, first, last)
		}
	}
	// Orders reach both ends of the history.
	got := queryRows(t, db, "SELECT min(date(ordered_at)), max(date(ordered_at)) FROM orders")[0]
	if got[0] > first[:8]+"05" || got[1] != last {
		t.Errorf("orders span %s .. %s, want about %s .. %s", got[0], got[1], first, last)
	}
}

func TestForeignKeyIntegrity(t *testing.T) {
	db := openTest(t, fixture.path)
	if rows := queryRows(t, db, "SELECT * FROM pragma_foreign_key_check"); len(rows) != 0 {
		t.Errorf("%d orphan references, first %v", len(rows), rows[0])
	}
	for _, fk := range contractForeignKeys {
		from, to, _ := strings.Cut(fk, " -> ")
		ft, fc, _ := strings.Cut(from, ".")
		tt, tc, _ := strings.Cut(to, ".")
		q := "SELECT count(*) FROM " + ft + " f WHERE f." + fc + " IS NOT NULL AND NOT EXISTS (SELECT 1 FROM " + tt + " t WHERE t." + tc + " = f." + fc + ")"
		if n := queryInt(t, db, q); n != 0 {
			t.Errorf("%s: %d orphans", fk, n)
		}
	}
	// The management tree: one root, and everyone reaches it.
	if n := queryInt(t, db, "SELECT count(*) FROM employees WHERE manager_id IS NULL"); n != 1 {
		t.Errorf("%d employees without a manager, want 1", n)
	}
	reach := queryRows(t, db, `WITH RECURSIVE tree(id, depth) AS (
		SELECT id, 1 FROM employees WHERE manager_id IS NULL
		UNION ALL SELECT e.id, tree.depth + 1 FROM employees e JOIN tree ON e.manager_id = tree.id WHERE tree.depth < 20)
		SELECT count(*), max(depth) FROM tree`)[0]
	if reach[0] != "60" || reach[1] < "3" {
		t.Errorf("management tree reaches %s employees with depth %s, want 60 and at least 3", reach[0], reach[1])
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
