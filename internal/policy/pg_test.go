//go:build cgo

package policy

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// demoCatalog is the shape of the demo's customers and employees tables,
// with a table that has an unrestricted column called email, and views.
func demoCatalog() *quarry.Catalog {
	cols := func(names ...string) []quarry.ColumnInfo {
		var out []quarry.ColumnInfo
		for _, n := range names {
			out = append(out, quarry.ColumnInfo{Name: n})
		}
		return out
	}
	return &quarry.Catalog{Tables: []quarry.TableInfo{
		{Schema: "public", Name: "customers", Columns: cols("id", "name", "email", "country", "signup_date")},
		{Schema: "public", Name: "employees", Columns: cols("id", "name", "title", "salary", "hired_on")},
		{Schema: "public", Name: "orders", Columns: cols("id", "customer_id", "total", "status", "ordered_at")},
		{Schema: "public", Name: "leads", Columns: cols("id", "email", "source")},
		{Schema: "public", Name: "customer_contacts", View: true, Columns: cols("name", "email"),
			ReadsKnown: true, Reads: []quarry.ColumnRead{{Table: "customers", Column: "name"}, {Table: "customers", Column: "email"}}},
		{Schema: "public", Name: "customer_countries", View: true, Columns: cols("name", "country"),
			ReadsKnown: true, Reads: []quarry.ColumnRead{{Table: "customers", Column: "name"}, {Table: "customers", Column: "country"}}},
		{Schema: "public", Name: "contacts_again", View: true, Columns: cols("name"),
			ReadsKnown: true, Reads: []quarry.ColumnRead{{Table: "customer_contacts", Column: "name"}}},
		{Schema: "public", Name: "mystery", View: true, Columns: cols("a")},
	}}
}

func demoChecker() *Checker {
	return New([]string{"customers.email", "employees.salary"}).For(quarry.DialectPostgres, demoCatalog())
}

// TestPostgresRefused: every way of reading a restricted column that the
// attack corpus (testdata/leaks.tsv) does not already hold.
func TestPostgresRefused(t *testing.T) {
	c := demoChecker()
	for _, sql := range []string{
		`SELECT email FROM customers`,
		`SELECT "email" FROM customers`,
		`SELECT c.email FROM customers c`,
		`SELECT public.customers.email FROM public.customers`,
		`SELECT * FROM customers`,
		`SELECT c.* FROM customers c`,
		`SELECT (c).* FROM customers c`,
		`SELECT (c).email FROM customers c`,
		`SELECT row_to_json(c) FROM customers c`,
		`SELECT c::text FROM customers c`,
		`SELECT to_jsonb(customers) FROM customers`,
		`SELECT c.row_to_json FROM customers c`,
		`SELECT name FROM customers WHERE email LIKE 'a%'`,
		`SELECT name FROM customers ORDER BY email`,
		`SELECT count(*) FROM customers GROUP BY email`,
		`SELECT country FROM customers GROUP BY country HAVING max(email) > 'm'`,
		`SELECT e.name FROM employees e JOIN customers c ON c.email = e.name`,
		`SELECT l.source FROM leads l JOIN customers USING (email)`,
		`SELECT l.source FROM leads l NATURAL JOIN customers`,
		`SELECT x FROM (SELECT email AS x FROM customers) s`,
		`WITH t AS (SELECT * FROM customers) SELECT name FROM t`,
		`WITH t(a, b, c, d, e) AS (SELECT * FROM customers) SELECT d FROM t`,
		`SELECT id FROM orders UNION SELECT salary FROM employees`,
		`SELECT e.*, 0 AS pad FROM employees e WHERE e.id < 0 UNION ALL SELECT c.* FROM customers c`,
		`SELECT (SELECT max(salary) FROM employees) FROM orders`,
		`SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM employees WHERE salary > o.total)`,
		`SELECT id FROM orders WHERE total IN (SELECT salary FROM employees)`,
		`SELECT sum(salary) OVER () FROM employees`,
		`SELECT name, rank() OVER (ORDER BY salary) FROM employees`,
		`SELECT string_agg(name, ',' ORDER BY email) FROM customers`,
		`SELECT count(*) FILTER (WHERE salary > 100) FROM employees`,
		`SELECT name FROM customers c, LATERAL (SELECT c.email) x`,
		`SELECT * FROM customers c, LATERAL jsonb_each_text(to_jsonb(c)) j`,
		`SELECT j.* FROM (customers c JOIN orders o ON o.customer_id = c.id) AS j`,
		`SELECT row_to_json(j) FROM (customers c JOIN orders o ON o.customer_id = c.id) AS j`,
		`SELECT name FROM customer_contacts`,
		`SELECT name FROM contacts_again`,
		`SELECT a FROM mystery`,
		`SELECT * FROM unknown_table`,
		`SELECT most_common_vals FROM pg_stats WHERE attname = 'email'`,
		`SELECT * FROM pg_catalog.pg_statistic`,
		`EXPLAIN SELECT name FROM customers WHERE email = 'x@example.com'`,
		`EXPLAIN SELECT id FROM customers`, // every EXPLAIN: its estimates count rows per partition
		`SELECT ARRAY(SELECT email FROM customers)`,
		`SELECT CASE WHEN salary > 1 THEN 1 END FROM employees`,
		`SELECT name FROM customers WHERE (email, name) = ('a', 'b')`,
		`VALUES ((SELECT email FROM customers LIMIT 1))`,
		`SELECT name FROM employees TABLESAMPLE SYSTEM (salary)`,
		`SELECT * FROM ROWS FROM (jsonb_each((SELECT to_jsonb(c) FROM customers c LIMIT 1)))`,
		`SELECT * FROM customers, LATERAL (SELECT email) q`,
		`SELECT 1 FROM customers c WHERE c = c`,
	} {
		if r := c.Check(quarry.DialectPostgres, sql); r == nil {
			t.Errorf("allowed, want refused: %s", sql)
		} else if r.Msg == "" || strings.Contains(r.Msg, "\n") {
			t.Errorf("%s: refusal message %q is not one line", sql, r.Msg)
		}
	}
}

// TestPostgresAllowed: ordinary analytics SQL is not over-blocked.
func TestPostgresAllowed(t *testing.T) {
	c := demoChecker()
	for _, sql := range []string{
		`SELECT id, name, country FROM customers`,
		`SELECT count(*) FROM customers`,
		`SELECT count(*), country FROM customers GROUP BY 2 ORDER BY 1 DESC`,
		`SELECT l.email FROM leads l`,
		`SELECT email FROM leads`,
		`SELECT * FROM orders`,
		`SELECT o.* FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = 'DE'`,
		`SELECT c.name, count(o.id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY 2 DESC LIMIT 5`,
		`SELECT s.email FROM (SELECT name AS email FROM customers) s`,
		`WITH t AS (SELECT id, name FROM customers) SELECT * FROM t`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r`,
		`SELECT name FROM customers UNION SELECT name FROM employees`,
		`SELECT date_trunc('month', ordered_at) AS m, sum(total) FROM orders GROUP BY 1 ORDER BY 1`,
		`SELECT name, title FROM employees WHERE hired_on > now() - interval '1 year'`,
		`SELECT * FROM customer_countries`,
		`SELECT count(*) FROM pg_catalog.pg_class`,
		`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public'`,
		`SELECT n FROM generate_series(1, 3) AS g(n)`,
		`SELECT c.id FROM customers c WHERE c.id IN (SELECT customer_id FROM orders WHERE total > 10)`,
		`SELECT 1`,
		`VALUES (1, 2)`,
		`SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)`,
	} {
		if r := c.Check(quarry.DialectPostgres, sql); r != nil {
			t.Errorf("refused, want allowed: %s\n  %s", sql, r.Msg)
		}
	}
}

// TestEmptyPolicyAllowsAll: with nothing restricted, nothing is refused,
// not even what cannot be parsed (the guard decides that).
func TestEmptyPolicyAllowsAll(t *testing.T) {
	c := New(nil).For(quarry.DialectPostgres, nil)
	if r := c.Check(quarry.DialectPostgres, `SELECT * FROM anything`); r != nil {
		t.Fatal(r.Msg)
	}
}

// FuzzCheckPostgres feeds arbitrary text to PostgreSQL's reader and the
// check: it never panics, a statement the reader cannot read is refused,
// and the decision does not change when the same statement is checked
// again.
func FuzzCheckPostgres(f *testing.F) {
	for _, s := range []string{
		`SELECT email FROM customers`, `SELECT * FROM orders`, `SELECT e FROM customers AS c(i, n, e)`,
		`WITH t AS (SELECT id FROM customers) SELECT * FROM t`, `SELECT row_to_json(c) FROM customers c`,
		`SELECT l.source FROM leads l NATURAL JOIN customers`, `SELECT (SELECT max(salary) FROM employees)`,
		`SELECT j.* FROM (customers c JOIN orders o ON o.customer_id = c.id) AS j`, `EXPLAIN SELECT 1`,
		`SELECT 1 FROM customers c, LATERAL (SELECT c.email) x`, `VALUES (1)`, `SELECT`, `)(`,
	} {
		f.Add(s)
	}
	c := demoChecker()
	f.Fuzz(func(t *testing.T, sql string) {
		if len(sql) > 4096 {
			return
		}
		r := c.Check(quarry.DialectPostgres, sql)
		if _, err := read(quarry.DialectPostgres, sql); err != nil && r == nil {
			t.Fatalf("unreadable but allowed: %q (%v)", sql, err)
		}
		if again := c.Check(quarry.DialectPostgres, sql); (again == nil) != (r == nil) {
			t.Fatalf("two decisions on %q", sql)
		}
	})
}

// TestPostgresSchemasAndInheritance: a name reaches the relation on the
// search path (another schema's table of that name does not lend it its
// columns), and a child table carries its parent's restricted columns.
func TestPostgresSchemasAndInheritance(t *testing.T) {
	cat := demoCatalog()
	cat.Tables = append(cat.Tables,
		quarry.TableInfo{Schema: "other", Name: "employees", Hidden: true, Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "row_to_json"}}},
		quarry.TableInfo{Schema: "public", Name: "vip", Parents: []string{"customers"}, Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "name"}, {Name: "email"}, {Name: "country"}, {Name: "signup_date"}}},
	)
	c := New([]string{"customers.email", "employees.salary"}).For(quarry.DialectPostgres, cat)
	for _, sql := range []string{
		`SELECT e.row_to_json FROM employees e`,
		`SELECT email FROM vip`,
		`SELECT * FROM vip`,
	} {
		if c.Check(quarry.DialectPostgres, sql) == nil {
			t.Errorf("allowed, want refused: %s", sql)
		}
	}
	for _, sql := range []string{
		`SELECT e.title FROM employees e`,
		`SELECT o.row_to_json FROM other.employees o`,
		`SELECT name FROM vip`,
	} {
		if r := c.Check(quarry.DialectPostgres, sql); r != nil {
			t.Errorf("refused, want allowed: %s: %s", sql, r.Msg)
		}
	}
}
