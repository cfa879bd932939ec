package policy

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/quarrydata/quarry/internal/quarry"
)

// ignorePos compares trees without byte offsets (TestReadMySQLPositions
// checks those).
var ignorePos = cmp.Options{cmpopts.IgnoreFields(Ref{}, "Pos"), cmpopts.IgnoreFields(Source{}, "Pos"), cmpopts.EquateEmpty()}

func ref(parts ...string) Ref  { return Ref{Parts: parts} }
func star(parts ...string) Ref { return Ref{Parts: parts, Star: true} }
func tbl(name, alias string) *Source {
	return &Source{Table: name, Alias: alias}
}

func TestReadMySQLTree(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want *Query
	}{
		{"SELECT c.name, `email` FROM customers c WHERE c.id = 1 AND country <> 'x'",
			&Query{Sources: []*Source{tbl("customers", "c")}, Refs: []Ref{ref("c", "name"), ref("email"), ref("c", "id"), ref("country")}}},
		{"SELECT * FROM shop.customers",
			&Query{Sources: []*Source{{Schema: "shop", Table: "customers"}}, Refs: []Ref{star()}}},
		{"SELECT c.*, shop.orders.* FROM customers AS c, shop.orders",
			&Query{Sources: []*Source{tbl("customers", "c"), {Schema: "shop", Table: "orders"}}, Refs: []Ref{star("c"), star("shop", "orders")}}},
		{"SELECT shop.customers.email FROM shop.customers",
			&Query{Sources: []*Source{{Schema: "shop", Table: "customers"}}, Refs: []Ref{ref("shop", "customers", "email")}}},
		{"SELECT 1 FROM a JOIN b USING (x, y) NATURAL JOIN c LEFT JOIN d ON d.k = a.k",
			&Query{Sources: []*Source{tbl("a", ""), {Table: "b", Using: []string{"x", "y"}}, {Table: "c", Natural: true}, tbl("d", "")},
				Refs: []Ref{ref("d", "k"), ref("a", "k")}}},
		// USING and NATURAL mark the last source of a parenthesised right
		// side, so that the checker resolves them over both sides whole.
		{"SELECT 1 FROM a JOIN (b JOIN c ON b.i = c.i) USING (x) NATURAL JOIN (d, e)",
			&Query{Sources: []*Source{tbl("a", ""), tbl("b", ""), {Table: "c", Using: []string{"x"}}, tbl("d", ""), {Table: "e", Natural: true}},
				Refs: []Ref{ref("b", "i"), ref("c", "i")}}},
		{"SELECT t.x FROM (SELECT email AS x FROM customers) t",
			&Query{Sources: []*Source{{Alias: "t", Derived: &Query{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{ref("email")}}}},
				Refs: []Ref{ref("t", "x")}}},
		{"SELECT * FROM customers c, LATERAL (SELECT c.email) AS l",
			&Query{Sources: []*Source{tbl("customers", "c"), {Alias: "l", Derived: &Query{Refs: []Ref{ref("c", "email")}}}}, Refs: []Ref{star()}}},
		{"WITH t AS (SELECT name FROM customers), u (n) AS (SELECT 1) SELECT * FROM t",
			&Query{With: []*CTE{{Name: "t", Query: &Query{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{ref("name")}}}, {Name: "u", Query: &Query{}}},
				Sources: []*Source{tbl("t", "")}, Refs: []Ref{star()}}},
		{"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r",
			&Query{With: []*CTE{{Name: "r", Recursive: true, Query: &Query{Branches: []*Query{{}, {Sources: []*Source{tbl("r", "")}, Refs: []Ref{ref("n"), ref("n")}}}}}},
				Sources: []*Source{tbl("r", "")}, Refs: []Ref{ref("n")}}},
		{"SELECT a FROM x UNION ALL SELECT b FROM y ORDER BY a LIMIT 3",
			&Query{Branches: []*Query{{Sources: []*Source{tbl("x", "")}, Refs: []Ref{ref("a")}}, {Sources: []*Source{tbl("y", "")}, Refs: []Ref{ref("b")}}},
				Refs: []Ref{ref("a")}}},
		{"(SELECT a FROM x ORDER BY k) UNION (SELECT b FROM y EXCEPT SELECT c FROM z) ORDER BY (SELECT 1 FROM w)",
			&Query{Branches: []*Query{
				{Sources: []*Source{tbl("x", "")}, Refs: []Ref{ref("a"), ref("k")}},
				{Branches: []*Query{{Sources: []*Source{tbl("y", "")}, Refs: []Ref{ref("b")}}, {Sources: []*Source{tbl("z", "")}, Refs: []Ref{ref("c")}}}},
			}, Subs: []*Query{{Sources: []*Source{tbl("w", "")}}}}},
		{"WITH t AS (SELECT 1 AS a) SELECT a FROM t UNION SELECT 2",
			&Query{With: []*CTE{{Name: "t", Query: &Query{}}}, Branches: []*Query{{Sources: []*Source{tbl("t", "")}, Refs: []Ref{ref("a")}}, {}}}},
		{"SELECT (SELECT max(salary) FROM employees), o.id FROM orders o WHERE EXISTS (SELECT 1 FROM x WHERE x.k = o.id) AND o.id IN (SELECT id FROM y) AND o.total > ANY (SELECT t FROM z)",
			&Query{Sources: []*Source{tbl("orders", "o")}, Refs: []Ref{ref("o", "id"), ref("o", "id"), ref("o", "total")},
				Subs: []*Query{
					{Sources: []*Source{tbl("employees", "")}, Refs: []Ref{ref("salary")}},
					{Sources: []*Source{tbl("x", "")}, Refs: []Ref{ref("x", "k"), ref("o", "id")}},
					{Sources: []*Source{tbl("y", "")}, Refs: []Ref{ref("id")}},
					{Sources: []*Source{tbl("z", "")}, Refs: []Ref{ref("t")}},
				}}},
		{"SELECT jt.v FROM customers c, JSON_TABLE(c.doc, '$[*]' COLUMNS (v VARCHAR(20) PATH '$.v' DEFAULT '\"x\"' ON EMPTY)) AS jt",
			&Query{Sources: []*Source{tbl("customers", "c"), {Func: true, Alias: "jt"}}, Refs: []Ref{ref("c", "doc"), ref("jt", "v")}}},
		{"SELECT sum(salary) OVER w, rank() OVER (PARTITION BY title ORDER BY id) FROM employees WINDOW w AS (PARTITION BY name ORDER BY hired)",
			&Query{Sources: []*Source{tbl("employees", "")}, Refs: []Ref{ref("salary"), ref("title"), ref("id"), ref("name"), ref("hired")}}},
		{"SELECT country, count(*) FROM customers GROUP BY country WITH ROLLUP HAVING max(signup_date) > '2020-01-01' ORDER BY 2 DESC",
			&Query{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{ref("country"), ref("country"), ref("signup_date")}}},
		{"SELECT group_concat(name ORDER BY email SEPARATOR ','), MATCH (name, email) AGAINST ('x'), DEFAULT(email), @v, ? FROM customers",
			&Query{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{ref("name"), ref("email"), ref("name"), ref("email")}}},
		{"SELECT CAST(a AS CHAR), CONVERT(b USING utf8mb4), c COLLATE utf8mb4_bin, d + INTERVAL 1 DAY, CASE WHEN e THEN f ELSE g END, h BETWEEN i AND j, k IS NULL, l REGEXP 'x', (m, n) = (1, 2), TRIM(LEADING 'x' FROM o), doc->>'$.p' FROM t",
			&Query{Sources: []*Source{tbl("t", "")}, Refs: []Ref{ref("a"), ref("b"), ref("c"), ref("d"), ref("e"), ref("f"), ref("g"), ref("h"), ref("i"), ref("j"), ref("k"), ref("l"), ref("m"), ref("n"), ref("o"), ref("doc")}}},
		{"TABLE customers",
			&Query{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{star()}}},
		{"VALUES ROW(1, (SELECT email FROM customers))",
			&Query{Refs: []Ref{star()}, Subs: []*Query{{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{ref("email")}}}}},
		{"EXPLAIN SELECT name FROM customers",
			&Query{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{ref("name")}, Explain: true}},
		{"EXPLAIN FORMAT=TREE SELECT name FROM customers",
			&Query{Sources: []*Source{tbl("customers", "")}, Refs: []Ref{ref("name")}, Explain: true}},
		{"SELECT 1 FROM DUAL", &Query{}},
		// MariaDB's VIEW_DEFINITION form.
		{"select `shop`.`customers`.`name` AS `name`,sum(`o`.`total`) AS `t` from (`shop`.`customers` join `shop`.`orders` `o` on(`o`.`customer_id` = `shop`.`customers`.`id`)) group by `shop`.`customers`.`name` order by 2 desc",
			&Query{Sources: []*Source{{Schema: "shop", Table: "customers"}, {Schema: "shop", Table: "orders", Alias: "o"}},
				Refs: []Ref{ref("o", "customer_id"), ref("shop", "customers", "id"), ref("shop", "customers", "name"), ref("o", "total"), ref("shop", "customers", "name")}}},
	} {
		got, err := readMySQL(tc.sql)
		if err != nil {
			t.Errorf("readMySQL(%q): %v", tc.sql, err)
			continue
		}
		if d := cmp.Diff(tc.want, got, ignorePos); d != "" {
			t.Errorf("readMySQL(%q) (-want +got):\n%s", tc.sql, d)
		}
	}
}

func TestReadMySQLPositions(t *testing.T) {
	sql := "SELECT email, c.* FROM customers c WHERE `name` = 'x'"
	q, err := readMySQL(sql)
	if err != nil {
		t.Fatal(err)
	}
	want := []Ref{
		{Parts: []string{"email"}, Pos: strings.Index(sql, "email")},
		{Parts: []string{"c"}, Star: true, Pos: strings.Index(sql, "c.*")},
		{Parts: []string{"name"}, Pos: strings.Index(sql, "`name`")},
	}
	if d := cmp.Diff(want, q.Refs); d != "" {
		t.Errorf("refs (-want +got):\n%s", d)
	}
	sql = "SELECT jt.v FROM customers c, /* x */ JSON_TABLE(  c.doc, '$' COLUMNS (v INT PATH '$')) jt"
	q, err = readMySQL(sql)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Sources) != 2 || !q.Sources[1].Func || q.Sources[1].Pos != strings.Index(sql, "c.doc") || q.Refs[0].Pos != strings.Index(sql, "c.doc") {
		t.Errorf("JSON_TABLE source and argument: %+v %+v", q.Sources[1], q.Refs)
	}
}

func TestReadMySQLErrors(t *testing.T) {
	for _, sql := range []string{
		"",
		"   -- nothing",
		"SELECT FROM",
		"SELECT 1; SELECT 2",
		"DELETE FROM customers",
		"UPDATE customers SET email = ''",
		"INSERT INTO t SELECT email FROM customers",
		"SHOW COLUMNS FROM customers",
		"DESCRIBE customers",
		"EXPLAIN DELETE FROM customers",
		"EXPLAIN FOR CONNECTION 1",
		"SET @x = (SELECT email FROM customers LIMIT 1)",
		"DO (SELECT email FROM customers LIMIT 1)",
		"CREATE VIEW v AS SELECT email FROM customers",
		"SELECT * FROM customers AS OF TIMESTAMP NOW()",
		"SELECT * FROM customers TABLESAMPLE REGIONS()",
		// JSON_TABLE whose column list holds more than literals is left
		// to the parser, which does not know it.
		"SELECT * FROM JSON_TABLE(doc, '$' COLUMNS (v INT PATH (SELECT email FROM customers))) jt",
	} {
		if q, err := readMySQL(sql); err == nil {
			t.Errorf("readMySQL(%q) = %+v, want an error", sql, q)
		}
	}
}

// mysqlCatalog is the demo's tables as a MySQL connection shows them, and
// views whose definitions are MariaDB's VIEW_DEFINITION text (read from
// MariaDB 10.11; TestMySQLViewsLive reads them again from the test
// server).
func mysqlCatalog() *quarry.Catalog {
	cols := func(names ...string) []quarry.ColumnInfo {
		var out []quarry.ColumnInfo
		for _, n := range names {
			out = append(out, quarry.ColumnInfo{Name: n})
		}
		return out
	}
	view := func(name, def string, c ...string) quarry.TableInfo {
		return quarry.TableInfo{Schema: "quarry_test", Name: name, View: true, Definition: def, Columns: cols(c...)}
	}
	return &quarry.Catalog{Dialect: quarry.DialectMySQL, Tables: []quarry.TableInfo{
		{Schema: "quarry_test", Name: "customers", Columns: cols("id", "name", "email", "country", "signup_date")},
		{Schema: "quarry_test", Name: "employees", Columns: cols("id", "name", "title", "salary")},
		{Schema: "quarry_test", Name: "orders", Columns: cols("id", "customer_id", "total", "status", "email")},
		view("contacts", "select `c`.`name` AS `name`,`c`.`email` AS `mail` from `quarry_test`.`customers` `c` where `c`.`country` = 'x'", "name", "mail"),
		view("totals", "select `c`.`name` AS `name`,sum(`o`.`total`) AS `t` from (`quarry_test`.`customers` `c` join `quarry_test`.`orders` `o` on(`o`.`customer_id` = `c`.`id`)) group by `c`.`name` order by 2 desc", "name", "t"),
		view("u", "select `quarry_test`.`customers`.`name` AS `name` from `quarry_test`.`customers` union select `quarry_test`.`orders`.`status` AS `status` from `quarry_test`.`orders`", "name"),
		view("w", "with x as (select `quarry_test`.`customers`.`id` AS `id`,`quarry_test`.`customers`.`name` AS `name`,`quarry_test`.`customers`.`email` AS `email`,`quarry_test`.`customers`.`country` AS `country`,`quarry_test`.`customers`.`signup_date` AS `signup_date` from `quarry_test`.`customers`)select `x`.`name` AS `name` from `x` where exists(select 1 from `quarry_test`.`orders` where `quarry_test`.`orders`.`customer_id` = `x`.`id` limit 1)", "name"),
		view("star", "select `quarry_test`.`customers`.`id` AS `id`,`quarry_test`.`customers`.`name` AS `name`,`quarry_test`.`customers`.`email` AS `email`,`quarry_test`.`customers`.`country` AS `country`,`quarry_test`.`customers`.`signup_date` AS `signup_date` from `quarry_test`.`customers`", "id", "name", "email", "country", "signup_date"),
		view("safe", "select `o`.`id` AS `id`,`o`.`email` AS `email` from `quarry_test`.`orders` `o`", "id", "email"),
	}}
}

func mysqlChecker(cat *quarry.Catalog) *Checker {
	return New([]string{"customers.email", "employees.salary"}).For(quarry.DialectMySQL, cat)
}

// mysqlRefused are statements that read a restricted column.
var mysqlRefused = []string{
	"SELECT email FROM customers",
	"SELECT * FROM customers",
	"SELECT c.* FROM customers c",
	"SELECT name FROM customers WHERE email LIKE '%x%'",
	"SELECT name FROM customers ORDER BY email",
	"SELECT count(*) FROM customers GROUP BY email",
	"SELECT e.name FROM employees e JOIN customers c ON c.email = e.name",
	"SELECT o.id FROM orders o JOIN customers c USING (email)",
	"SELECT o.id FROM orders o JOIN (employees e JOIN customers c ON c.id = e.id) USING (email)",
	"SELECT o.id FROM orders o NATURAL JOIN customers c",
	"SELECT o.id FROM orders o NATURAL JOIN (employees e, customers c)",
	"SELECT x FROM (SELECT email AS x FROM customers) t",
	"WITH t AS (SELECT * FROM customers) SELECT name FROM t",
	// In a plain WITH a CTE's own name in its query is the table.
	"WITH customers AS (SELECT email FROM customers) SELECT * FROM customers",
	"WITH a AS (SELECT 1 AS x), customers AS (SELECT email AS y FROM customers) SELECT y FROM customers",
	"SELECT (WITH customers AS (SELECT email AS x FROM customers) SELECT max(x) FROM customers) FROM orders",
	"SELECT id FROM orders UNION SELECT salary FROM employees",
	"(SELECT id FROM orders) UNION (SELECT id FROM employees ORDER BY salary LIMIT 1)",
	"SELECT id FROM orders UNION SELECT id FROM orders ORDER BY (SELECT max(salary) FROM employees)",
	"SELECT (SELECT max(salary) FROM employees) FROM orders",
	"SELECT name FROM customers WHERE EXISTS (SELECT 1 FROM employees WHERE salary > 10)",
	"SELECT name FROM customers c WHERE id IN (SELECT customer_id FROM orders o WHERE o.total > 0 AND c.email <> '')",
	"SELECT JSON_OBJECT('e', email) FROM customers",
	"SELECT c.name, jt.v FROM customers c, JSON_TABLE(JSON_ARRAY(c.email), '$[*]' COLUMNS (v VARCHAR(100) PATH '$')) AS jt",
	"SELECT SUM(salary) OVER () FROM employees",
	"SELECT rank() OVER w FROM employees WINDOW w AS (ORDER BY salary)",
	"SELECT name FROM customers HAVING max(email) > ''",
	"SELECT `email` FROM customers",
	"SELECT EMAIL FROM Customers",
	"SELECT quarry_test.customers.email FROM quarry_test.customers",
	"SELECT quarry_test.customers.email FROM customers",
	"SELECT CONCAT(name, email) FROM customers",
	"SELECT name FROM employees WHERE salary BETWEEN 1 AND 2",
	"SELECT name FROM customers WHERE MATCH (name, email) AGAINST ('x')",
	"SELECT @v := email FROM customers",
	"SELECT * FROM customers c, LATERAL (SELECT c.email) AS l",
	"TABLE customers",
	"EXPLAIN SELECT name FROM customers WHERE email = 'a@b.c'",
	"EXPLAIN SELECT name FROM customers", // every EXPLAIN: its estimates count rows per partition
	"SELECT name FROM contacts",
	"SELECT * FROM contacts",
	"SELECT * FROM star",
	"SELECT name FROM w",
	// Not a query, or not one the reader can read: refused while
	// columns are restricted.
	"DELETE FROM orders",
	"SELECT 1; SELECT 2",
	"SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (v INT PATH (SELECT 1))) jt",
	// Relations the catalog does not list.
	"SELECT id FROM suppliers",
}

// mysqlAllowed are statements that read no restricted column.
var mysqlAllowed = []string{
	"SELECT id, name, country FROM customers",
	"SELECT o.email FROM orders o",
	"SELECT email FROM orders",
	"SELECT count(*) FROM customers",
	"SELECT c.name, count(o.id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY 2 DESC LIMIT 5",
	"SELECT t.email FROM (SELECT name AS email FROM customers) t",
	"WITH t AS (SELECT id, name FROM customers) SELECT t.name, o.total FROM t JOIN orders o ON o.customer_id = t.id",
	"WITH customers AS (SELECT name AS email FROM employees) SELECT email FROM customers",
	"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r",
	"WITH a AS (SELECT id FROM customers), b AS (SELECT a.id FROM a) SELECT * FROM b",
	"SELECT id FROM orders UNION SELECT id FROM customers UNION ALL SELECT id FROM employees ORDER BY id",
	"SELECT * FROM orders",
	"SELECT name, title FROM employees WHERE title LIKE 'eng%'",
	"SELECT o.id FROM orders o JOIN customers c USING (id)",
	"SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE status = 'paid')",
	"SELECT c.name, jt.v FROM customers c, JSON_TABLE(JSON_ARRAY(c.name), '$[*]' COLUMNS (v VARCHAR(100) PATH '$')) AS jt",
	"SELECT name, row_number() OVER (PARTITION BY country ORDER BY signup_date) FROM customers",
	"VALUES ROW(1, 2)",
	"SELECT 1",
	"SELECT name FROM totals",
	"SELECT * FROM u",
	"SELECT * FROM safe",
	"SELECT table_name FROM information_schema.tables",
}

func TestMySQLRefused(t *testing.T) {
	c := mysqlChecker(mysqlCatalog())
	for _, sql := range mysqlRefused {
		if r := c.Check(quarry.DialectMySQL, sql); r == nil {
			t.Errorf("allowed, want refused: %s", sql)
		} else if r.Msg == "" || r.Column == "" {
			t.Errorf("refusal without a column or message: %s: %+v", sql, r)
		}
	}
}

func TestMySQLAllowed(t *testing.T) {
	c := mysqlChecker(mysqlCatalog())
	for _, sql := range mysqlAllowed {
		if r := c.Check(quarry.DialectMySQL, sql); r != nil {
			t.Errorf("refused, want allowed: %s: %s", sql, r.Msg)
		}
	}
}

func TestMySQLRefusalNamesColumn(t *testing.T) {
	c := mysqlChecker(mysqlCatalog())
	sql := "SELECT name FROM customers WHERE email LIKE '%x%'"
	r := c.Check(quarry.DialectMySQL, sql)
	if r == nil || r.Column != "customers.email" || r.Pos != strings.Index(sql, "email") {
		t.Errorf("Check(%q) = %+v, want customers.email at %d", sql, r, strings.Index(sql, "email"))
	}
}

// TestMySQLViewsLive reads views' definitions from the test server's
// information_schema.VIEWS and decides statements over them.
func TestMySQLViewsLive(t *testing.T) {
	dsn := os.Getenv("QUARRY_TEST_MYSQL_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("QUARRY_TEST_MYSQL_DSN is not set; CI must start MariaDB (scripts/services.sh) before the tests")
		}
		t.Skip("QUARRY_TEST_MYSQL_DSN is not set; start MariaDB with scripts/services.sh to run this test")
	}
	cfg, err := gomysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBName = ""
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := fmt.Sprintf("quarry_policy_t%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	in := cfg.Clone()
	in.DBName = name
	sdb, err := sql.Open("mysql", in.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	for _, s := range []string{
		"CREATE TABLE customers (id INT, name VARCHAR(20), email VARCHAR(50), country VARCHAR(5), signup_date DATE)",
		"CREATE TABLE orders (id INT, customer_id INT, total INT, status TEXT, email TEXT)",
		"CREATE VIEW contacts AS SELECT c.name, c.email AS mail FROM customers c WHERE c.country = 'x'",
		"CREATE VIEW totals AS SELECT c.name, sum(o.total) t FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY 2 DESC",
		"CREATE VIEW u AS SELECT name FROM customers UNION SELECT status FROM orders",
		"CREATE VIEW w AS WITH x AS (SELECT * FROM customers) SELECT name FROM x WHERE EXISTS (SELECT 1 FROM orders WHERE orders.customer_id = x.id)",
		"CREATE VIEW star AS SELECT * FROM customers",
		"CREATE VIEW filtered AS SELECT name FROM customers WHERE email LIKE '%@x'",
		"CREATE VIEW safe AS SELECT o.id, o.email FROM orders o",
	} {
		if _, err := sdb.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME, VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ?", name)
	if err != nil {
		t.Fatal(err)
	}
	defs := map[string]string{}
	for rows.Next() {
		var n, d string
		if err := rows.Scan(&n, &d); err != nil {
			t.Fatal(err)
		}
		defs[n] = d
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	cat := &quarry.Catalog{Dialect: quarry.DialectMySQL, Tables: []quarry.TableInfo{
		{Schema: name, Name: "customers", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "name"}, {Name: "email"}, {Name: "country"}, {Name: "signup_date"}}},
		{Schema: name, Name: "orders", Columns: []quarry.ColumnInfo{{Name: "id"}, {Name: "customer_id"}, {Name: "total"}, {Name: "status"}, {Name: "email"}}},
	}}
	restricted := map[string]bool{"contacts": true, "w": true, "star": true, "filtered": true}
	for _, v := range []string{"contacts", "totals", "u", "w", "star", "filtered", "safe"} {
		def, ok := defs[v]
		if !ok {
			t.Fatalf("no VIEW_DEFINITION for %s", v)
		}
		if _, err := readMySQL(def); err != nil {
			t.Errorf("readMySQL(VIEW_DEFINITION of %s = %q): %v", v, def, err)
		}
		cat.Tables = append(cat.Tables, quarry.TableInfo{Schema: name, Name: v, View: true, Definition: def, Columns: []quarry.ColumnInfo{{Name: "name"}, {Name: "id"}}})
	}
	c := mysqlChecker(cat)
	for _, v := range []string{"contacts", "totals", "u", "w", "star", "filtered", "safe"} {
		stmt := "SELECT * FROM " + name + "." + v
		if r := c.Check(quarry.DialectMySQL, stmt); (r != nil) != restricted[v] {
			t.Errorf("Check(%s): %v, want refused=%v (definition %q)", stmt, r, restricted[v], defs[v])
		}
	}
}

// FuzzReadMySQL: the reader and the checker never panic, and a query that
// has customers among its sources and names a bare email column (with no
// WITH anywhere that could shadow customers) is refused.
func FuzzReadMySQL(f *testing.F) {
	for _, s := range append(append([]string{}, mysqlRefused...), mysqlAllowed...) {
		f.Add(s)
	}
	f.Add("SELECT jt.v FROM customers c, JSON_TABLE(c.doc, '$[*]' COLUMNS (v INT PATH '$', NESTED PATH '$.a' COLUMNS (w TEXT PATH '$'))) jt")
	f.Add("SELECT a FROM (t1 JOIN t2 USING (a)) NATURAL JOIN (SELECT 1 a) x WHERE a = (SELECT email FROM customers LIMIT 1)")
	c := mysqlChecker(mysqlCatalog())
	f.Fuzz(func(t *testing.T, sql string) {
		if len(sql) > 4096 {
			return
		}
		q, err := readMySQL(sql)
		r := c.Check(quarry.DialectMySQL, sql)
		if err != nil {
			if r == nil {
				t.Fatalf("unreadable statement allowed: %q (%v)", sql, err)
			}
			return
		}
		if !hasWith(q) && readsBareEmailOfCustomers(q) && r == nil {
			t.Fatalf("allowed a bare email over customers: %q", sql)
		}
	})
}

func hasWith(q *Query) bool {
	if q == nil {
		return false
	}
	if len(q.With) > 0 {
		return true
	}
	for _, s := range q.Sources {
		if hasWith(s.Derived) {
			return true
		}
	}
	for _, s := range append(append([]*Query{}, q.Subs...), q.Branches...) {
		if hasWith(s) {
			return true
		}
	}
	return false
}

func readsBareEmailOfCustomers(q *Query) bool {
	if q == nil {
		return false
	}
	if len(q.Branches) == 0 {
		cust, email := false, false
		for _, s := range q.Sources {
			cust = cust || strings.EqualFold(s.Table, "customers")
		}
		for _, r := range q.Refs {
			email = email || (!r.Star && len(r.Parts) == 1 && strings.EqualFold(r.Parts[0], "email"))
		}
		if cust && email {
			return true
		}
	}
	for _, s := range q.Sources {
		if readsBareEmailOfCustomers(s.Derived) {
			return true
		}
	}
	for _, s := range append(append([]*Query{}, q.Subs...), q.Branches...) {
		if readsBareEmailOfCustomers(s) {
			return true
		}
	}
	return false
}
