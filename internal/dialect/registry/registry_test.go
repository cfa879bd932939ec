package registry

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestEveryDialect holds each registered dialect to the contract: found by
// its name, every grain rendered, identifiers and literals quoted so that
// a quote inside cannot end them.
func TestEveryDialect(t *testing.T) {
	for _, d := range Dialects() {
		t.Run(string(d.Name()), func(t *testing.T) {
			if got, err := For(d.Name()); err != nil || got.Name() != d.Name() {
				t.Fatalf("For(%s) = %v, %v", d.Name(), got, err)
			}
			for _, g := range []dialect.Grain{dialect.Day, dialect.Week, dialect.Month, dialect.Quarter, dialect.Year} {
				if s, ok := d.Grain(g, "t.at"); !ok || !strings.Contains(s, "t.at") {
					t.Errorf("grain %s = %q, %v", g, s, ok)
				}
			}
			if s := d.DayOfWeek("t.at"); !strings.Contains(s, "t.at") {
				t.Errorf("DayOfWeek = %q", s)
			}
			if _, ok := d.Grain("fortnight", "t.at"); ok {
				t.Error("an unknown grain was rendered")
			}
			q := d.QuoteIdent("we\"ird`name")
			if len(q) < 2 || q[0] != q[len(q)-1] || strings.Count(q[1:len(q)-1], string(q[0]))%2 != 0 {
				t.Errorf("QuoteIdent = %s: the quote character inside is not doubled", q)
			}
			lit := d.String("it's")
			if !strings.HasPrefix(lit, "'") || !strings.Contains(lit, "''") {
				t.Errorf("String = %s", lit)
			}
			if d.CatalogSQL() == "" {
				t.Error("no catalog SQL")
			}
		})
	}
}

func TestFor(t *testing.T) {
	for _, d := range []quarry.Dialect{quarry.DialectGeneric, ""} {
		if got, err := For(d); err != nil || got.Name() != quarry.DialectSQLite {
			t.Errorf("For(%q) = %v, %v; the generic dialect reads like SQLite", d, got, err)
		}
	}
	if _, err := For("clickhouse"); err == nil || quarry.KindOf(err) != quarry.KindUnsupported || !strings.Contains(err.Error(), "sqlite, postgres, mysql, duckdb") {
		t.Errorf("For(clickhouse) = %v", err)
	}
}

func TestIdent(t *testing.T) {
	pg, _ := For(quarry.DialectPostgres)
	my, _ := For(quarry.DialectMySQL)
	for in, want := range map[string]string{"orders": "orders", "order": `"order"`, "Orders": `"Orders"`, "2x": `"2x"`, "a b": `"a b"`, "_x1": "_x1"} {
		if got := dialect.Ident(pg, in); got != want {
			t.Errorf("Ident(postgres, %q) = %s, want %s", in, got, want)
		}
	}
	if got := dialect.Ident(my, "select"); got != "`select`" {
		t.Errorf("Ident(mysql, select) = %s", got)
	}
}
