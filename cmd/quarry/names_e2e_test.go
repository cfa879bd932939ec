package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
)

// oddCase is one database of oddly named tables and columns: the tables
// to create (names unquoted; the test quotes them the engine's way), a
// question over them and the one figure the answer must hold.
type oddCase struct {
	name     string
	tables   []oddTable
	question string
	want     string // the single cell of the answer, as --json writes it
}

type oddTable struct {
	schema string // "" for the default one
	name   string
	cols   []oddCol
	rows   [][]string // SQL literals, one per column
}

type oddCol struct{ name, typ string }

func oddCases(long string) []oddCase {
	num := func(n string) oddCol { return oddCol{n, "INTEGER"} }
	txt := func(n string) oddCol { return oddCol{n, "TEXT"} }
	return []oddCase{
		{name: "spaces", tables: []oddTable{{name: "Order Details", cols: []oddCol{num("Order ID"), num("Unit Price")}, rows: [][]string{{"1", "3"}, {"2", "4"}}}},
			question: "total unit price", want: "7"},
		{name: "hyphen", tables: []oddTable{{name: "order-items", cols: []oddCol{num("id"), num("line-amount")}, rows: [][]string{{"1", "5"}, {"2", "6"}, {"3", "7"}}}},
			question: "how many order items", want: "3"},
		{name: "dot in a table name", tables: []oddTable{{name: "sales.orders", cols: []oddCol{num("id"), num("sales.total")}, rows: [][]string{{"1", "10"}, {"2", "20"}}}},
			question: "total sales total", want: "30"},
		{name: "dot counted", tables: []oddTable{{name: "sales.orders", cols: []oddCol{num("id"), num("amount")}, rows: [][]string{{"1", "10"}, {"2", "20"}}}},
			question: "how many sales orders", want: "2"},
		{name: "leading dot", tables: []oddTable{{name: ".hidden", cols: []oddCol{num("id"), txt("note")}, rows: [][]string{{"1", "'a'"}, {"2", "'b'"}, {"3", "'c'"}, {"4", "'d'"}}}},
			question: "how many hidden", want: "4"},
		{name: "accent", tables: []oddTable{{name: "Café", cols: []oddCol{num("id"), num("prix€")}, rows: [][]string{{"1", "2"}, {"2", "5"}}}},
			question: "how many café", want: "2"},
		{name: "accented column", tables: []oddTable{{name: "Café", cols: []oddCol{num("id"), num("Prix")}, rows: [][]string{{"1", "2"}, {"2", "5"}}}},
			question: "total prix", want: "7"},
		{name: "chinese", tables: []oddTable{{name: "客户", cols: []oddCol{num("id"), txt("名字")}, rows: [][]string{{"1", "'王'"}, {"2", "'李'"}}}},
			question: "how many 客户", want: "2"},
		{name: "keywords", tables: []oddTable{{name: "order", cols: []oddCol{num("id"), txt("group"), num("select"), txt("user")}, rows: [][]string{{"1", "'g'", "2", "'u'"}, {"2", "'h'", "3", "'v'"}}}},
			question: "total select", want: "5"},
		{name: "quotes", tables: []oddTable{{name: "it's", cols: []oddCol{num("id"), num(`a"b`), num("c`d")}, rows: [][]string{{"1", "1", "10"}, {"2", "2", "20"}}}},
			question: "how many it's", want: "2"},
		{name: "quote in a measured column", tables: []oddTable{{name: "it's", cols: []oddCol{num("id"), num(`price"s`)}, rows: [][]string{{"1", "1"}, {"2", "2"}}}},
			question: "total price s", want: "3"},
		{name: "mixed case", tables: []oddTable{{name: "CustomerOrders", cols: []oddCol{num("CustomerID"), num("OrderTotal")}, rows: [][]string{{"1", "4"}, {"2", "5"}}}},
			question: "total OrderTotal", want: "9"},
		{name: "digits first", tables: []oddTable{{name: "2019_sales", cols: []oddCol{num("id"), num("net_amount")}, rows: [][]string{{"1", "100"}, {"2", "50"}}}},
			question: "total net amount", want: "150"},
		{name: "long", tables: []oddTable{{name: long, cols: []oddCol{num("id"), num("quantity_" + long[:40])}, rows: [][]string{{"1", "1"}, {"2", "2"}}}},
			question: "how many " + long, want: "2"},
	}
}

// quoteOdd quotes a name the engine's way (the test's own, independent
// of the code under test).
func quoteOdd(d quarry.Dialect, s string) string {
	if d == quarry.DialectMySQL {
		return "`" + strings.ReplaceAll(s, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func oddDDL(d quarry.Dialect, tables []oddTable) []string {
	var out []string
	for _, t := range tables {
		name := quoteOdd(d, t.name)
		if t.schema != "" {
			out = append(out, "CREATE SCHEMA IF NOT EXISTS "+quoteOdd(d, t.schema))
			name = quoteOdd(d, t.schema) + "." + name
		}
		var cols []string
		for i, c := range t.cols {
			typ := c.typ
			if d == quarry.DialectMySQL && typ == "TEXT" {
				typ = "VARCHAR(100)"
			}
			if i == 0 {
				typ += " PRIMARY KEY"
			}
			cols = append(cols, quoteOdd(d, c.name)+" "+typ)
		}
		out = append(out, "CREATE TABLE "+name+" ("+strings.Join(cols, ", ")+")")
		for _, r := range t.rows {
			out = append(out, "INSERT INTO "+name+" VALUES ("+strings.Join(r, ", ")+")")
		}
	}
	return out
}

// oddProject makes a project over a fresh database of dialect d holding
// tables, with policy.yaml restricting restricted (may be empty).
func oddProject(t *testing.T, d quarry.Dialect, tables []oddTable, restricted ...string) string {
	t.Helper()
	dir := t.TempDir()
	stmts := oddDDL(d, tables)
	var conn string
	switch d {
	case quarry.DialectSQLite:
		db, err := sqlite3.Open(filepath.Join(dir, "odd.db"))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stmts {
			if err := db.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		db.Close()
		conn = "    driver: sqlite\n    path: odd.db\n"
	case quarry.DialectPostgres:
		conn = "    driver: postgres\n    url: ${DB_URL}\n    allow_privileged_role: true\n"
		writeEnv(t, dir, oddPostgres(t, stmts))
	case quarry.DialectMySQL:
		conn = "    driver: mysql\n    url: ${DB_URL}\n    allow_privileged_role: true\n"
		writeEnv(t, dir, "mysql://"+oddMariaDB(t, stmts))
	}
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte("version: 1\nconnections:\n  odd:\n"+conn), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(restricted) > 0 {
		var b strings.Builder
		b.WriteString("restricted:\n")
		for _, r := range restricted {
			fmt.Fprintf(&b, "  - column: %q\n    reason: secret\n", r)
		}
		if err := os.MkdirAll(filepath.Join(dir, "knowledge"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "knowledge", "policy.yaml"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func oddPostgres(t *testing.T, stmts []string) string {
	t.Helper()
	base := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("quarry_names_%d", rand.IntN(1e9))
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, base); err == nil {
			c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	c, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, s := range stmts {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return u.String()
}

func oddMariaDB(t *testing.T, stmts []string) string {
	t.Helper()
	dsn := connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
	cfg, err := gomysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("quarry_names_%d", rand.IntN(1e9))
	if _, err := admin.Exec("CREATE DATABASE " + name + " CHARACTER SET utf8mb4"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("mysql", dsn); err == nil {
			db.Exec("DROP DATABASE IF EXISTS " + name)
			db.Close()
		}
	})
	cfg.DBName = name
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return fmt.Sprintf("%s:%s@%s/%s", cfg.User, url.QueryEscape(cfg.Passwd), cfg.Addr, name)
}

// oddDialects runs fn for SQLite, PostgreSQL and MariaDB; the servers'
// subtests skip (or fail in CI) without their server.
func oddDialects(t *testing.T, fn func(t *testing.T, d quarry.Dialect)) {
	for _, d := range []quarry.Dialect{quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL} {
		t.Run(string(d), func(t *testing.T) {
			switch d {
			case quarry.DialectPostgres:
				connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
			case quarry.DialectMySQL:
				connectortest.URL(t, "QUARRY_TEST_MYSQL_DSN", os.LookupEnv)
			}
			fn(t, d)
		})
	}
}

// askCell asks question in dir and returns the answer's one cell.
func askCell(t *testing.T, dir, question string) string {
	t.Helper()
	r := quarryCmd(t, "", "-C", dir, "ask", "--json", question)
	var out struct {
		Rows [][]any `json:"rows"`
		SQL  string  `json:"sql"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 0 {
		t.Fatalf("ask %q: exit %d\n%s%s", question, r.code, r.stdout, r.stderr)
	}
	if len(out.Rows) != 1 || len(out.Rows[0]) != 1 {
		t.Fatalf("ask %q: rows %v\n%s", question, out.Rows, out.SQL)
	}
	return fmt.Sprint(out.Rows[0][0])
}

// TestOddNamesEndToEnd learns databases whose table and column names have
// spaces, hyphens, dots, accents, CJK characters, quotes, keywords, mixed
// case, leading digits and the engines' full length, then asks a question
// over each, on every engine: the compiled SQL must run and give the
// figure.
func TestOddNamesEndToEnd(t *testing.T) {
	oddDialects(t, func(t *testing.T, d quarry.Dialect) {
		long := strings.Repeat("very_long_table_name_", 3)[:60]
		for _, c := range oddCases(long) {
			t.Run(c.name, func(t *testing.T) {
				dir := oddProject(t, d, c.tables)
				if r := quarryCmd(t, "", "-C", dir, "learn", "-q"); r.code != 0 {
					t.Fatalf("learn: exit %d\n%s%s", r.code, r.stdout, r.stderr)
				} else if strings.Contains(r.stdout+r.stderr, "warning: values of") {
					t.Errorf("learn warned:\n%s", r.stdout+r.stderr)
				}
				f, err := knowledge.Load(filepath.Join(dir, "knowledge"))
				if err != nil {
					t.Fatal(err)
				}
				for _, tb := range c.tables {
					found := false
					for _, e := range f.Model.Entities {
						// MySQL names the connection's database as the schema
						found = found || e.Table == tb.name && (e.Schema == tb.schema || d == quarry.DialectMySQL && tb.schema == "")
					}
					if !found {
						t.Errorf("no entity of table %q.%q: %+v", tb.schema, tb.name, f.Model.Entities)
					}
				}
				if got := askCell(t, dir, c.question); got != c.want {
					t.Errorf("ask %q = %s, want %s", c.question, got, c.want)
				}
			})
		}
	})
}

// TestOddNamesEntityFiles learns odd names into one file per entity:
// every file stays inside entities/, no two entities share one, and the
// folder loads back to the same names.
func TestOddNamesEntityFiles(t *testing.T) {
	tables := []oddTable{
		{name: "sales.orders", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "sales_orders", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "Sales.Orders2", cols: []oddCol{{"id", "INTEGER"}}},
		{name: ".hidden", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "..", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "../../escape", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "a/b", cols: []oddCol{{"id", "INTEGER"}}},
		{name: `a\b`, cols: []oddCol{{"id", "INTEGER"}}},
		{name: "CON", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "客户", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "Café", cols: []oddCol{{"id", "INTEGER"}}},
		{name: "it's", cols: []oddCol{{"id", "INTEGER"}}},
		{name: `a"b`, cols: []oddCol{{"id", "INTEGER"}}},
	}
	dir := oddProject(t, quarry.DialectSQLite, tables)
	kdir := filepath.Join(dir, "knowledge")
	if err := os.MkdirAll(filepath.Join(kdir, "entities"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := quarryCmd(t, "", "-C", dir, "learn", "-q"); r.code != 0 {
		t.Fatalf("learn: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	files, err := filepath.Glob(filepath.Join(kdir, "entities", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(tables) {
		t.Errorf("%d entity files for %d tables: %v", len(files), len(tables), files)
	}
	// nothing written outside the folder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".yaml") && !strings.HasPrefix(p, filepath.Join(kdir, "entities")) &&
			filepath.Dir(p) != kdir && filepath.Base(p) != "quarry.yaml" {
			t.Errorf("file outside entities/: %s", p)
		}
		return nil
	})
	f, err := knowledge.Load(kdir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range f.Model.Entities {
		seen[e.Table] = true
	}
	for _, tb := range tables {
		if !seen[tb.name] {
			t.Errorf("table %q not loaded back; entities %v", tb.name, seen)
		}
	}
	// learn again: the same files, nothing added
	if r := quarryCmd(t, "", "-C", dir, "learn", "-q"); r.code != 0 {
		t.Fatalf("learn again: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	again, _ := filepath.Glob(filepath.Join(kdir, "entities", "*"))
	if len(again) != len(files) {
		t.Errorf("learn again: %d files, was %d", len(again), len(files))
	}
}

// TestOddNamesPolicy restricts a column of oddly named tables and attacks
// it: quarry run by every spelling of the table, ask, and a star must all
// be refused, on every engine.
func TestOddNamesPolicy(t *testing.T) {
	oddDialects(t, func(t *testing.T, d quarry.Dialect) {
		tables := []oddTable{
			{name: "sales.orders", cols: []oddCol{{"id", "INTEGER"}, {"secret", "TEXT"}, {"amount", "INTEGER"}}, rows: [][]string{{"1", "'s3cr3t-one'", "5"}}},
			{name: "it's", cols: []oddCol{{"id", "INTEGER"}, {`pass"word`, "TEXT"}}, rows: [][]string{{"1", "'s3cr3t-two'"}}},
			{name: "Café", cols: []oddCol{{"id", "INTEGER"}, {"Secret Key", "TEXT"}}, rows: [][]string{{"1", "'s3cr3t-three'"}}},
		}
		dir := oddProject(t, d, tables, "sales.orders.secret", `it's.pass"word`, "Café.Secret Key")
		if r := quarryCmd(t, "", "-C", dir, "learn", "-q"); r.code != 0 {
			t.Fatalf("learn: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		q := func(s string) string { return quoteOdd(d, s) }
		for _, stmt := range []string{
			"SELECT secret FROM " + q("sales.orders"),
			"SELECT * FROM " + q("sales.orders"),
			"SELECT o.secret FROM " + q("sales.orders") + " AS o",
			"SELECT " + q(`pass"word`) + " FROM " + q("it's"),
			"SELECT * FROM " + q("it's"),
			"SELECT " + q("Secret Key") + " FROM " + q("Café"),
			"SELECT count(*) FROM " + q("Café") + " WHERE " + q("Secret Key") + " LIKE 's%'",
		} {
			r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", stmt)
			if r.code != quarry.ExitRejected || strings.Contains(r.stdout+r.stderr, "s3cr3t") {
				t.Errorf("%s: exit %d, want refused\n%s%s", stmt, r.code, r.stdout, r.stderr)
			}
		}
		// what is not restricted still runs
		r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT amount FROM "+q("sales.orders"))
		if r.code != 0 || r.stdout != "amount\n5\n" {
			t.Errorf("unrestricted column: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		for _, question := range []string{"list sales orders secret", "list it's pass word", "list café secret key"} {
			r := quarryCmd(t, "", "-C", dir, "ask", "--json", question)
			if strings.Contains(r.stdout+r.stderr, "s3cr3t") {
				t.Errorf("ask %q leaked:\n%s%s", question, r.stdout, r.stderr)
			}
		}
	})
}

// TestPostgresSchemaAndDottedName keeps a table orders in schema sales
// apart from a table named "sales.orders" in public: each is its own
// entity, and each question reads its own table.
func TestPostgresSchemaAndDottedName(t *testing.T) {
	connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	tables := []oddTable{
		{schema: "sales", name: "orders", cols: []oddCol{{"id", "INTEGER"}, {"schema_amount", "INTEGER"}}, rows: [][]string{{"1", "100"}, {"2", "200"}}},
		{name: "sales.orders", cols: []oddCol{{"id", "INTEGER"}, {"dotted_amount", "INTEGER"}}, rows: [][]string{{"1", "1"}, {"2", "2"}}},
	}
	dir := oddProject(t, quarry.DialectPostgres, tables)
	if r := quarryCmd(t, "", "-C", dir, "learn", "-q"); r.code != 0 {
		t.Fatalf("learn: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	f, err := knowledge.Load(filepath.Join(dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Model.Entities) != 2 {
		t.Fatalf("entities: %+v", f.Model.Entities)
	}
	for _, tb := range tables {
		n := 0
		for _, e := range f.Model.Entities {
			if e.Schema == tb.schema && e.Table == tb.name {
				n++
			}
		}
		if n != 1 {
			t.Errorf("table %q.%q: %d entities: %+v", tb.schema, tb.name, n, f.Model.Entities)
		}
	}
	if got := askCell(t, dir, "total schema amount"); got != "300" {
		t.Errorf("schema table: %s", got)
	}
	if got := askCell(t, dir, "total dotted amount"); got != "3" {
		t.Errorf("dotted table: %s", got)
	}
}
