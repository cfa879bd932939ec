// Command wide prints the SQL that builds the synthetic wide catalog of the
// retrieval benchmark (internal/eval's SyntheticCatalog: realistic names in
// many domains, foreign keys, near-duplicate tables, comments on some) as a
// real database, with a few rows in every table, for timing learn and ask
// on a wide schema. It writes SQL text only; the database's own shell runs
// it:
//
//	go run ./bench/wide -tables 10000 -dialect sqlite | sqlite3 wide.db
//	go run ./bench/wide -tables 10000 -dialect postgres | psql -q "$URL"
//
// SQLite has no schemas, so there a table is named unit_domain__table
// (the PostgreSQL schema and table joined by two underscores).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/quarrydata/quarry/internal/eval"
	"github.com/quarrydata/quarry/internal/quarry"
)

func main() {
	tables := flag.Int("tables", 10000, "tables in the catalog")
	rows := flag.Int("rows", 5, "rows in every table")
	dialect := flag.String("dialect", "sqlite", "sqlite or postgres")
	flag.Parse()
	if *dialect != "sqlite" && *dialect != "postgres" {
		fmt.Fprintln(os.Stderr, "wide: -dialect must be sqlite or postgres")
		os.Exit(2)
	}
	cat, _ := eval.SyntheticCatalog(*tables, 0, 1)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	write(w, cat, *rows, *dialect == "postgres")
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "wide:", err)
		os.Exit(1)
	}
}

func write(w *bufio.Writer, cat *quarry.Catalog, rows int, pg bool) {
	name := func(schema, table string) string {
		if pg {
			return `"` + schema + `"."` + table + `"`
		}
		return `"` + schema + "__" + table + `"`
	}
	fmt.Fprintln(w, "BEGIN;")
	if pg {
		seen := map[string]bool{}
		for _, t := range cat.Tables {
			if !seen[t.Schema] {
				seen[t.Schema] = true
				fmt.Fprintf(w, "CREATE SCHEMA IF NOT EXISTS %q;\n", t.Schema)
			}
		}
	}
	// Tables are created parents first: a foreign key's table exists
	// before the tables that refer to it (PostgreSQL checks; SQLite does
	// not, but the order costs nothing).
	created := map[string]bool{}
	var create func(t *quarry.TableInfo)
	byName := map[string]*quarry.TableInfo{}
	for i := range cat.Tables {
		t := &cat.Tables[i]
		byName[t.Schema+"."+t.Name] = t
	}
	create = func(t *quarry.TableInfo) {
		key := t.Schema + "." + t.Name
		if created[key] {
			return
		}
		created[key] = true
		for _, fk := range t.ForeignKeys {
			if p := byName[fk.RefSchema+"."+fk.RefTable]; p != nil {
				create(p)
			}
		}
		var cols []string
		for _, c := range t.Columns {
			def := `"` + c.Name + `" ` + sqlType(c.Type, pg)
			if c.Name == "id" {
				def += " PRIMARY KEY"
			}
			cols = append(cols, def)
		}
		for _, fk := range t.ForeignKeys {
			if byName[fk.RefSchema+"."+fk.RefTable] == nil {
				continue
			}
			cols = append(cols, fmt.Sprintf(`FOREIGN KEY ("%s") REFERENCES %s (id)`, fk.Columns[0], name(fk.RefSchema, fk.RefTable)))
		}
		fmt.Fprintf(w, "CREATE TABLE %s (%s);\n", name(t.Schema, t.Name), strings.Join(cols, ", "))
		if pg && t.Comment != "" {
			fmt.Fprintf(w, "COMMENT ON TABLE %s IS '%s';\n", name(t.Schema, t.Name), strings.ReplaceAll(t.Comment, "'", "''"))
		}
		for r := 1; r <= rows; r++ {
			vals := make([]string, len(t.Columns))
			for i, c := range t.Columns {
				vals[i] = value(c, r, pg)
			}
			fmt.Fprintf(w, "INSERT INTO %s VALUES (%s);\n", name(t.Schema, t.Name), strings.Join(vals, ", "))
		}
	}
	for i := range cat.Tables {
		create(&cat.Tables[i])
		if pg && i%500 == 499 {
			// PostgreSQL holds a lock per table created until the
			// transaction ends; ten thousand overflow its lock table.
			fmt.Fprintln(w, "COMMIT;\nBEGIN;")
		}
	}
	fmt.Fprintln(w, "COMMIT;")
}

func sqlType(t quarry.Type, pg bool) string {
	switch t {
	case quarry.TypeInt:
		if pg {
			return "bigint"
		}
		return "INTEGER"
	case quarry.TypeFloat:
		if pg {
			return "double precision"
		}
		return "REAL"
	case quarry.TypeTimestamp:
		if pg {
			return "timestamp"
		}
		return "TIMESTAMP"
	}
	if pg {
		return "text"
	}
	return "TEXT"
}

// value is row r's value of column c: ids and references are r (every
// reference finds its row, as every table has the same rows), numbers and
// times vary with r, text is the column's name and r.
func value(c quarry.ColumnInfo, r int, pg bool) string {
	switch c.Type {
	case quarry.TypeInt:
		return fmt.Sprint(r)
	case quarry.TypeFloat:
		return fmt.Sprintf("%d.%02d", r*37%1000, r*13%100)
	case quarry.TypeTimestamp:
		ts := fmt.Sprintf("'2026-%02d-%02d 10:00:00'", r%12+1, r%28+1)
		if pg {
			return "TIMESTAMP " + ts
		}
		return ts
	}
	return fmt.Sprintf("'%s %d'", strings.ReplaceAll(c.Name, "_", " "), r)
}
