package sqlitecheck

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

func newChecker(t testing.TB) *Checker {
	t.Helper()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func loadCases(t testing.TB, name string) []sqlguard.Case {
	t.Helper()
	data, err := os.ReadFile("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := sqlguard.ParseCorpus(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestCorpus runs every any and sqlite row through the combined verdict
// and, separately, checks that the engine alone allows every allow row.
func TestCorpus(t *testing.T) {
	c := newChecker(t)
	ctx := context.Background()
	n := map[bool]int{}
	for _, file := range []string{"guard-corpus.tsv", "extra-cases.tsv", "implicit-calls.tsv"} {
		for _, cs := range loadCases(t, file) {
			if cs.Dialect != quarry.DialectGeneric && cs.Dialect != quarry.DialectSQLite {
				continue
			}
			n[cs.Allow]++
			v := c.Guard(ctx, cs.SQL, sqlguard.Options{})
			if v.Allowed != cs.Allow {
				t.Errorf("%s:%d want allow=%v, got %s\n\tsql: %q", file, cs.Line, cs.Allow, v, cs.SQL)
			}
			if cs.Allow {
				if e := c.Check(ctx, cs.SQL, sqlguard.Options{}); !e.Allowed {
					t.Errorf("%s:%d engine alone rejects an allow row: %s\n\tsql: %q", file, cs.Line, e, cs.SQL)
				}
			}
		}
	}
	t.Logf("sqlite+any rows: %d allow, %d reject", n[true], n[false])
}

// TestEngineAlone checks that the engine verdict by itself rejects the
// writes and state changes the lexical guard also rejects.
func TestEngineAlone(t *testing.T) {
	c := newChecker(t)
	ctx := context.Background()
	tests := []struct {
		sql  string
		code string
	}{
		{"ATTACH DATABASE '/tmp/evil.db' AS evil", CodeEngineDenied},
		{"DETACH DATABASE evil", CodeEngineDenied},
		{"PRAGMA query_only = 0", CodeEngineDenied},
		{"PRAGMA foreign_keys = OFF", CodeEngineDenied},
		{"PRAGMA trusted_schema = ON", CodeEngineDenied},
		{"VACUUM INTO '/tmp/quarry-never.db'", CodeEngineNotReadOnly},
		{"VACUUM", CodeEngineNotReadOnly},
		{"BEGIN", CodeEngineDenied},
		{"BEGIN IMMEDIATE", CodeEngineDenied},
		{"SAVEPOINT s1", CodeEngineDenied},
		{"CREATE TEMP TABLE t(x)", CodeEngineDenied},
		{"CREATE TEMP VIEW v AS SELECT 1", CodeEngineDenied},
		{"INSERT INTO users(id) VALUES (1)", CodeEngineDenied},
		{"UPDATE users SET a = 1", CodeEngineDenied},
		{"DELETE FROM users", CodeEngineDenied},
		{"WITH x AS (SELECT 1) INSERT INTO users (id) SELECT * FROM x", CodeEngineDenied},
		{"SELECT randomblob(1000000000)", CodeEngineDenied},
		{"SELECT load_extension('/tmp/evil.so')", CodeEngineError}, // not compiled in
		{"SELECT sqlite_compileoption_get(1)", CodeEngineDenied},
		{"SELECT 1; SELECT 2", CodeEngineMultiple},
		{"SELECT 1; DROP TABLE users", CodeEngineMultiple},
		{"SELECT * FROM other.users", CodeEngineSchema},
		{"SELECT * FROM temp.users", CodeEngineSchema},
		{"SELECT x", CodeEngineError},
		{"SELECT * FROM users FOR UPDATE", CodeEngineError},
		{"SELECT median(x) FROM t", CodeEngineError},
		{"ANALYZE", CodeEngineDenied},
		{"REINDEX", CodeEngineNoResult}, // read-only per SQLite, no authorizer call
		{"ANALYZE users", CodeEngineDenied},
	}
	seen := map[string]bool{CodeEngineUnchecked: true} // TestBound, TestCancelled
	for _, tt := range tests {
		v := c.Check(ctx, tt.sql, sqlguard.Options{})
		if v.Allowed || !v.Has(tt.code) {
			t.Errorf("Check(%q) = %s, want rejection %s", tt.sql, v, tt.code)
		}
		seen[tt.code] = true
	}
	for _, code := range Codes() {
		if !seen[code] {
			t.Errorf("no test for %s", code)
		}
	}
}

// TestSynthesis checks that allowed statements whose tables do not exist
// in memory still get an engine verdict.
func TestSynthesis(t *testing.T) {
	c := newChecker(t)
	ctx := context.Background()
	for _, sql := range []string{
		"SELECT o.total, c.name FROM orders o JOIN customers AS c ON c.id = o.customer_id WHERE o.status = 'paid'",
		"SELECT a.x FROM a JOIN b USING (id)",
		"SELECT * FROM a NATURAL JOIN b",
		"SELECT s.n FROM (SELECT count(*) AS n FROM t) s",
		"WITH m AS (SELECT customer_id, sum(total) AS revenue FROM orders GROUP BY 1) SELECT revenue FROM m ORDER BY revenue DESC LIMIT 5",
		"SELECT main.orders.id FROM main.orders",
		"SELECT strftime('%Y-%m', ordered_at) AS month, count(*) FROM orders GROUP BY month",
		"SELECT id, total, rank() OVER (PARTITION BY customer_id ORDER BY total DESC) FROM orders",
		"SELECT \"Order Details\".qty FROM \"Order Details\"",
		"SELECT name FROM sqlite_master WHERE type = 'table'",
		"SELECT * FROM pragma_table_info('orders')",
		"SELECT value FROM json_each('[1,2]')",
		"EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id = 1",
		"SELECT 1 -- trailing comment",
		"SELECT 1; -- trailing comment after the semicolon",
	} {
		if v := c.Guard(ctx, sql, sqlguard.Options{}); !v.Allowed {
			t.Errorf("Guard(%q) = %s, want allowed", sql, v)
		}
	}
	// Nothing is left behind between checks.
	if v := c.Check(ctx, "SELECT * FROM orders", sqlguard.Options{}); !v.Allowed {
		t.Fatalf("second check: %s", v)
	}
	stmt, _, err := c.conn.Prepare("SELECT count(*) FROM sqlite_master")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	if !stmt.Step() || stmt.ColumnInt(0) != 0 {
		t.Errorf("synthesised tables were left behind: %d", stmt.ColumnInt(0))
	}
}

func TestExtraFunctions(t *testing.T) {
	c := newChecker(t)
	ctx := context.Background()
	sql := "SELECT unicode('a')"
	if v := c.Check(ctx, sql, sqlguard.Options{}); !v.Allowed {
		t.Fatalf("unicode is listed: %s", v)
	}
	sql = "SELECT sqlite_compileoption_used('THREADSAFE')"
	if v := c.Check(ctx, sql, sqlguard.Options{}); v.Allowed || !v.Has(CodeEngineDenied) {
		t.Fatalf("unlisted function: %s", v)
	}
	if v := c.Check(ctx, sql, sqlguard.Options{ExtraFunctions: []string{"SQLITE_COMPILEOPTION_USED"}}); !v.Allowed {
		t.Fatalf("extra function: %s", v)
	}
	if v := c.Check(ctx, "SELECT randomblob(4)", sqlguard.Options{ExtraFunctions: []string{"randomblob"}}); v.Allowed {
		t.Fatalf("a never-allowed function was re-enabled: %s", v)
	}
}

func TestCancelled(t *testing.T) {
	c := newChecker(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v := c.Check(ctx, "SELECT 1", sqlguard.Options{})
	if v.Allowed || !v.Has(CodeEngineUnchecked) {
		t.Fatalf("cancelled check: %s", v)
	}
	if v := c.Check(context.Background(), "SELECT 1", sqlguard.Options{}); !v.Allowed {
		t.Fatalf("after a cancelled check: %s", v)
	}
}

func TestBound(t *testing.T) {
	c := newChecker(t)
	var b strings.Builder
	b.WriteString("SELECT 1 FROM t0")
	for i := 1; i < MaxSynthesis+5; i++ {
		b.WriteString(" JOIN t")
		b.WriteString(strings.Repeat("x", i))
		b.WriteString(" ON 1")
	}
	v := c.Check(context.Background(), b.String(), sqlguard.Options{})
	if v.Allowed || !v.Has(CodeEngineUnchecked) {
		t.Fatalf("over the bound: %s", v)
	}
}

func TestClosed(t *testing.T) {
	c := newChecker(t)
	c.Close()
	if v := c.Check(context.Background(), "SELECT 1", sqlguard.Options{}); v.Allowed || !v.Has(CodeEngineUnchecked) {
		t.Fatalf("closed checker: %s", v)
	}
}
