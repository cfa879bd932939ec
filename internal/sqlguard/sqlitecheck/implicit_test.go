package sqlitecheck

import (
	"slices"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// TestImplicitCalls: SQLite runs a function for some operators (->, ->>,
// LIKE, GLOB, REGEXP, MATCH), and the authorizer is asked about each as a
// FUNCTION by its name, so the allow-list decides them like any call;
// CAST, COLLATE, ||, IS, BETWEEN, IN and qualified names t.f call nothing.
func TestImplicitCalls(t *testing.T) {
	conn, err := sqlite3.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Exec("CREATE TABLE t (x TEXT, j TEXT, sleep INT)"); err != nil {
		t.Fatal(err)
	}
	var asked []string
	auth := Authorizer(func(name string) bool { asked = append(asked, name); return true }, nil)
	if err := conn.SetAuthorizer(auth); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sql  string
		want []string // the FUNCTION names the authorizer is asked about
	}{
		{`SELECT j -> '$.a' FROM t`, []string{"->"}},
		{`SELECT j ->> '$.a' FROM t`, []string{"->>"}},
		{`SELECT x LIKE 'a%' FROM t`, []string{"like"}},
		{`SELECT x LIKE 'a%' ESCAPE '!' FROM t`, []string{"like"}},
		{`SELECT x GLOB 'a*' FROM t`, []string{"glob"}},
		{`SELECT x REGEXP 'a' FROM t`, []string{"regexp"}},
		{`SELECT x MATCH 'a' FROM t`, []string{"match"}},
		{`SELECT CAST(x AS INTEGER), x COLLATE NOCASE, x || 'a', x IS NULL, x BETWEEN 'a' AND 'b', x IN ('a') FROM t`, nil},
		{`SELECT t.sleep, t.x FROM t`, nil},
	}
	for _, tt := range tests {
		asked = nil
		stmt, _, err := conn.Prepare(tt.sql)
		if err != nil {
			t.Errorf("%q: %v", tt.sql, err)
			continue
		}
		stmt.Close()
		var got []string
		for _, a := range asked {
			if !slices.Contains(got, a) {
				got = append(got, a)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: the authorizer was asked about %q, want %q", tt.sql, got, tt.want)
		}
	}
}

// TestPragmaTablesArePrepareTimeDecisions: a table-valued pragma written as
// a table (FROM pragma_page_count, without parentheses) runs its pragma
// only when stepped; the authorizer refuses it while the statement is
// prepared, as the call form is (found from outside: it failed at run time
// with SQLite's bare "not authorized").
func TestPragmaTablesArePrepareTimeDecisions(t *testing.T) {
	conn, err := sqlite3.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Exec("CREATE TABLE t (x TEXT)"); err != nil {
		t.Fatal(err)
	}
	var denials []Denial
	if err := conn.SetAuthorizer(Authorizer(func(string) bool { return true }, func(d Denial) { denials = append(denials, d) })); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{`SELECT * FROM pragma_page_count`, `SELECT * FROM PRAGMA_user_version`, `SELECT * FROM main.pragma_function_list`, `SELECT * FROM pragma_journal_mode`} {
		denials = nil
		stmt, _, err := conn.Prepare(sql)
		if err == nil {
			stmt.Close()
			t.Errorf("%s prepared", sql)
			continue
		}
		if len(denials) == 0 || denials[0].Action != sqlite3.AUTH_PRAGMA {
			t.Errorf("%s: denials %v, want the pragma named", sql, denials)
		}
	}
	for _, sql := range []string{`SELECT name FROM pragma_table_list`, `SELECT * FROM pragma_table_info('t')`, `SELECT x FROM t`} {
		stmt, _, err := conn.Prepare(sql)
		if err != nil {
			t.Errorf("%s: %v", sql, err)
			continue
		}
		stmt.Close()
	}
}
