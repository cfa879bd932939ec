//go:build cgo

package policy

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// LeakCase is one row of testdata/leaks.tsv.
type leakCase struct {
	line     int
	dialects string
	refuse   bool
	sql      string
	note     string
}

// leakCorpus reads testdata/leaks.tsv.
func leakCorpus(t *testing.T) []leakCase {
	t.Helper()
	f, err := os.Open("testdata/leaks.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []leakCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 4 || (cols[1] != "refuse" && cols[1] != "allow") {
			t.Fatalf("leaks.tsv:%d: want dialects, refuse|allow, SQL, note", n)
		}
		out = append(out, leakCase{line: n, dialects: cols[0], refuse: cols[1] == "refuse", sql: cols[2], note: cols[3]})
	}
	return out
}

func (c leakCase) applies(d quarry.Dialect) bool {
	return c.dialects == "all" || strings.Contains(","+c.dialects+",", ","+string(d)+",")
}

// leakCatalog is the corpus's schema as the PostgreSQL and MySQL catalogs
// describe it.
func leakCatalog(d quarry.Dialect) *quarry.Catalog {
	cols := func(names ...string) []quarry.ColumnInfo {
		var out []quarry.ColumnInfo
		for _, n := range names {
			out = append(out, quarry.ColumnInfo{Name: n})
		}
		return out
	}
	// sal2 is generated from salary: PostgreSQL's catalog names the
	// columns its expression reads (pg_depend), MySQL's only that it is
	// generated.
	sal2 := quarry.ColumnInfo{Name: "sal2", Generated: true}
	orders := cols("id", "customer_id", "total")
	if d == quarry.DialectPostgres {
		sal2.GeneratedFrom = []string{"salary"}
		orders = append(orders, quarry.ColumnInfo{Name: "total2", Generated: true, GeneratedFrom: []string{"total"}})
	}
	contacts := quarry.TableInfo{Name: "customer_contacts", View: true, Columns: cols("name", "email")}
	countries := quarry.TableInfo{Name: "customer_countries", View: true, Columns: cols("name", "country")}
	gmail := quarry.TableInfo{Name: "gmail_customers", View: true, Columns: cols("name")}
	if d == quarry.DialectMySQL {
		// VIEW_DEFINITION as MariaDB shows it.
		contacts.Definition = "select `shop`.`customers`.`name` AS `name`,`shop`.`customers`.`email` AS `email` from `shop`.`customers`"
		countries.Definition = "select `shop`.`customers`.`name` AS `name`,`shop`.`customers`.`country` AS `country` from `shop`.`customers`"
		gmail.Definition = "select `shop`.`customers`.`name` AS `name` from `shop`.`customers` where `shop`.`customers`.`email` like '%@gmail.example'"
	} else {
		// pg_depend's reads and pg_get_viewdef's text, as PostgreSQL 15 shows them.
		contacts.ReadsKnown, contacts.Reads = true, []quarry.ColumnRead{{Table: "customers", Column: "email"}, {Table: "customers", Column: "name"}}
		countries.ReadsKnown, countries.Reads = true, []quarry.ColumnRead{{Table: "customers", Column: "country"}, {Table: "customers", Column: "name"}}
		gmail.ReadsKnown, gmail.Reads = true, []quarry.ColumnRead{{Table: "customers", Column: "email"}, {Table: "customers", Column: "name"}}
		contacts.Definition = " SELECT customers.name,\n    customers.email\n   FROM customers;"
		countries.Definition = " SELECT customers.name,\n    customers.country\n   FROM customers;"
		gmail.Definition = " SELECT customers.name\n   FROM customers\n  WHERE customers.email::text ~~ '%@gmail.example'::text;"
	}
	tables := []quarry.TableInfo{
		{Name: "customers", Columns: cols("id", "name", "email", "country")},
		{Name: "employees", Columns: append(cols("id", "name", "title", "salary"), sal2)},
		{Name: "orders", Columns: orders},
		{Name: "leads", Columns: cols("id", "email", "source")},
		contacts, countries, gmail,
	}
	if d == quarry.DialectPostgres {
		// A view over pg_class's row estimates: pg_depend records no
		// reads of a system catalog, so its definition decides.
		tables = append(tables, quarry.TableInfo{Name: "class_rows", View: true, Columns: cols("relname", "reltuples"),
			ReadsKnown: true, Definition: " SELECT pg_class.relname,\n    pg_class.reltuples\n   FROM pg_class;"})
	}
	return &quarry.Catalog{Dialect: d, Tables: tables}
}

// TestLeakCorpus runs the corpus through the parse + catalog decision of
// PostgreSQL and MySQL (SQLite's authorizer runs it in cmd/quarry's leak
// test, on a real file).
func TestLeakCorpus(t *testing.T) {
	cases := leakCorpus(t)
	for _, d := range []quarry.Dialect{quarry.DialectPostgres, quarry.DialectMySQL} {
		c := New([]string{"customers.email", "employees.salary"}).For(d, leakCatalog(d))
		n := 0
		for _, lc := range cases {
			if !lc.applies(d) {
				continue
			}
			n++
			r := c.Check(d, lc.sql)
			switch {
			case lc.refuse && r == nil:
				t.Errorf("%s leaks.tsv:%d (%s): allowed, want refused: %s", d, lc.line, lc.note, lc.sql)
			case !lc.refuse && r != nil:
				t.Errorf("%s leaks.tsv:%d (%s): refused, want allowed: %s\n  %s", d, lc.line, lc.note, lc.sql, r.Msg)
			}
		}
		if n < 40 {
			t.Errorf("%s: only %d corpus cases", d, n)
		}
	}
}

// BenchmarkCheck measures the lineage check of a typical analytics
// statement on the demo's schema: parse, scope resolution, catalog
// lookups. The baseline is the parse alone (BenchmarkParse).
func BenchmarkCheck(b *testing.B) {
	sql := `SELECT c.country, date_trunc('month', o.ordered_at) AS month, count(*) AS orders, sum(o.total) AS revenue
FROM orders o JOIN customers c ON c.id = o.customer_id
WHERE o.status = 'completed' AND c.id IN (SELECT customer_id FROM orders WHERE total > 10)
GROUP BY 1, 2 ORDER BY 2, 4 DESC LIMIT 100`
	c := New([]string{"customers.email", "employees.salary"}).For(quarry.DialectPostgres, demoCatalog())
	if r := c.Check(quarry.DialectPostgres, sql); r != nil {
		b.Fatal(r.Msg)
	}
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			c.Check(quarry.DialectPostgres, sql)
		}
	})
	b.Run("parse-only", func(b *testing.B) {
		for b.Loop() {
			if _, err := read(quarry.DialectPostgres, sql); err != nil {
				b.Fatal(err)
			}
		}
	})
}
