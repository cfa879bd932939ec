//go:build cgo

package pgparse_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/pgparse"
)

var pgOpts = sqlguard.Options{Dialect: quarry.DialectPostgres}

// TestCorpusCombined runs every PostgreSQL row through the combined guard
// (lexical guard, then the parser): every reject rejected, every allow
// allowed.
func TestCorpusCombined(t *testing.T) {
	g, err := guard.New(pgOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if !g.Engine() {
		t.Fatal("the postgres guard has no engine check")
	}
	ctx := context.Background()
	for _, file := range corpusFiles {
		var allow, reject, parserOnly int
		for _, c := range loadCases(t, file) {
			v := g.Check(ctx, c.SQL)
			if !c.Allow && sqlguard.Check(c.SQL, pgOpts).Allowed && !v.Allowed {
				parserOnly++
				t.Logf("%s: only the parser rejects %q", caseName(file, c), c.SQL)
			}
			switch {
			case c.Allow && !v.Allowed:
				t.Errorf("%s over-blocked: %q (%s): %v", caseName(file, c), c.SQL, c.Why, v)
			case !c.Allow && v.Allowed:
				t.Errorf("%s let through: %q (%s)", caseName(file, c), c.SQL, c.Why)
			}
			if c.Allow {
				allow++
			} else {
				reject++
			}
		}
		t.Logf("%s: %d allow, %d reject rows; %d rejects caught by the parser alone", file, allow, reject, parserOnly)
	}
}

// TestCorpusParserAlone runs the rows through pgparse.Check alone: it
// must allow every allow row, must reject every reject row of this
// package's own cases, and reports how many of the other reject rows the
// parser catches without the lexical guard.
func TestCorpusParserAlone(t *testing.T) {
	for _, file := range corpusFiles {
		own := strings.HasPrefix(file, "testdata/") || strings.HasSuffix(file, "implicit-calls.tsv")
		var rejects, caught int
		var missed []string
		for _, c := range loadCases(t, file) {
			v := pgparse.Check(c.SQL, pgOpts)
			if c.Allow {
				if !v.Allowed {
					t.Errorf("%s: the parser over-blocks %q: %v", caseName(file, c), c.SQL, v)
				}
				continue
			}
			rejects++
			if !v.Allowed {
				caught++
				continue
			}
			if own {
				t.Errorf("%s: the parser alone lets through %q (%s)", caseName(file, c), c.SQL, c.Why)
			}
			missed = append(missed, c.Why)
		}
		t.Logf("%s: the parser alone rejects %d of %d reject rows", file, caught, rejects)
		for _, m := range missed {
			t.Logf("  left to the lexical guard: %s", m)
		}
	}
}

func TestCheckVerdicts(t *testing.T) {
	type viol struct {
		Code string
		Pos  int
	}
	tests := []struct {
		sql   string
		allow bool
		kind  string
		limit bool
		funcs []string
		viols []viol
	}{
		{sql: "SELECT id FROM orders LIMIT 10", allow: true, kind: "select", limit: true},
		{sql: "SELECT id FROM orders LIMIT ALL", allow: true, kind: "select"},
		{sql: "SELECT id FROM orders FETCH FIRST 5 ROWS ONLY", allow: true, kind: "select", limit: true},
		{sql: "VALUES (1)", allow: true, kind: "values"},
		{sql: "WITH a AS (SELECT 1) SELECT * FROM a", allow: true, kind: "with"},
		{sql: "EXPLAIN (ANALYZE false, FORMAT JSON) SELECT 1", allow: true, kind: "explain"},
		{sql: "EXPLAIN (analyse off) SELECT 1", allow: true, kind: "explain"},
		{sql: "EXPLAIN (ANALYZE 0, COSTS off) SELECT 1", allow: true, kind: "explain"},
		{sql: "SELECT count(*), pg_catalog.lower('A'), Lower('b') FROM t", allow: true, kind: "select", funcs: []string{"count", "lower"}},
		{sql: "EXPLAIN ANALYZE SELECT 1", kind: "explain", viols: []viol{{sqlguard.CodeExplainAnalyze, 8}}},
		{sql: "EXPLAIN (FORMAT JSON, ANALYZE 'yes') SELECT 1", kind: "explain", viols: []viol{{sqlguard.CodeExplainAnalyze, 22}}},
		{sql: "EXPLAIN (ANALYZE 2) SELECT 1", kind: "explain", viols: []viol{{sqlguard.CodeExplainAnalyze, 9}}},
		{sql: "EXPLAIN (SHOUT) SELECT 1", kind: "explain", viols: []viol{{sqlguard.CodeStatementNotAllowed, 9}}},
		{sql: "EXPLAIN UPDATE t SET a = 1", kind: "explain", viols: []viol{{sqlguard.CodeStatementNotAllowed, 0}}},
		{sql: "  /* c */ DELETE FROM t", viols: []viol{{sqlguard.CodeStatementNotAllowed, 10}}},
		{sql: "SELECT 1; SELECT 2", viols: []viol{{sqlguard.CodeMultipleStatements, 10}}},
		{sql: "", viols: []viol{{sqlguard.CodeEmpty, 0}}},
		{sql: "-- only a comment", viols: []viol{{sqlguard.CodeEmpty, 0}}},
		{sql: "SELECT 1\x00; DROP TABLE t", viols: []viol{{sqlguard.CodeNUL, 8}}},
		{sql: "SELECT '\xff'", viols: []viol{{sqlguard.CodeEncoding, 8}}},
		{sql: "SELECT 'é', 1 +", viols: []viol{{sqlguard.CodeSyntax, 16}}},
		{sql: "SELECT 'é' FROM WHERE", viols: []viol{{sqlguard.CodeSyntax, 17}}},
		{sql: "SELECT * INTO x FROM t", kind: "select", viols: []viol{{sqlguard.CodeInto, 14}}},
		{sql: "SELECT nextval('s')", kind: "select", funcs: []string{"nextval"}, viols: []viol{{sqlguard.CodeFunctionNotAllowed, 7}}},
		{sql: "SELECT * FROM t WHERE x = public.f(1)", kind: "select", funcs: []string{"public.f"}, viols: []viol{{sqlguard.CodeFunctionNotAllowed, 26}}},
		{sql: "WITH d AS (DELETE FROM t RETURNING *) SELECT 1", kind: "with", viols: []viol{{sqlguard.CodeDataModifyingCTE, 5}}},
		{sql: "SELECT * FROM t FOR UPDATE", kind: "select", viols: []viol{{sqlguard.CodeLocking, 16}}},
		{sql: "WITH c AS (SELECT * FROM t FOR UPDATE) SELECT * FROM c FOR SHARE", kind: "with",
			viols: []viol{{sqlguard.CodeLocking, 27}, {sqlguard.CodeLocking, 55}}},
		{sql: "SELECT * FROM (SELECT * FROM t FOR KEY SHARE) s, (SELECT 1 FOR NO KEY UPDATE) u", kind: "select",
			viols: []viol{{sqlguard.CodeLocking, 31}, {sqlguard.CodeLocking, 59}}},
		{sql: "SELECT * FROM t TABLESAMPLE x.y (1)", kind: "select", viols: []viol{{sqlguard.CodeFunctionNotAllowed, 28}}},
	}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			v := pgparse.Check(tt.sql, pgOpts)
			var got []viol
			for _, x := range v.Violations {
				got = append(got, viol{x.Code, x.Pos})
				if x.Message == "" {
					t.Errorf("violation %s has no message", x.Code)
				}
			}
			if v.Allowed != tt.allow || v.Statement != tt.kind || v.HasLimit != tt.limit || v.Dialect != quarry.DialectPostgres {
				t.Errorf("got allowed=%v kind=%q limit=%v dialect=%q, want %v %q %v: %v", v.Allowed, v.Statement, v.HasLimit, v.Dialect, tt.allow, tt.kind, tt.limit, v)
			}
			if diff := cmp.Diff(tt.viols, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s\n%v", diff, v.Violations)
			}
			if tt.funcs != nil {
				if diff := cmp.Diff(tt.funcs, v.Functions); diff != "" {
					t.Errorf("functions (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestSyntaxMessage(t *testing.T) {
	v := pgparse.Check("SELECT FROM FROM", pgOpts)
	if v.Allowed || !v.Has(sqlguard.CodeSyntax) || !strings.Contains(v.Violations[0].Message, "syntax error at or near \"FROM\"") {
		t.Fatalf("want the engine's syntax message, got %v", v)
	}
}

func TestExtraFunctions(t *testing.T) {
	opts := sqlguard.Options{ExtraFunctions: []string{"my_report", "reports.monthly", "nextval"}}
	for sql, allow := range map[string]bool{
		"SELECT my_report(1)":              true,
		"SELECT MY_REPORT(1)":              true,
		"SELECT \"My_Report\"(1)":          false, // a different, case-sensitive name
		"SELECT reports.monthly(1)":        true,
		"SELECT other.monthly(1)":          false,
		"SELECT \"Reports\".monthly(1)":    false,
		"SELECT nextval('s')":              false, // never, whatever the configuration says
		"SELECT reports.lo_import('/x')":   false,
		"SELECT * FROM reports.monthly(1)": true,
	} {
		if v := pgparse.Check(sql, opts); v.Allowed != allow {
			t.Errorf("%q: allowed=%v, want %v: %v", sql, v.Allowed, allow, v)
		}
	}
}

func TestTooLarge(t *testing.T) {
	v := pgparse.Check("SELECT 1 + 1", sqlguard.Options{MaxBytes: 5})
	if v.Allowed || !v.Has(sqlguard.CodeTooLarge) {
		t.Fatalf("want too_large, got %v", v)
	}
}

func TestCancelled(t *testing.T) {
	g, err := guard.New(pgOpts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v := g.Check(ctx, "SELECT 1"); v.Allowed || !v.Has(pgparse.CodeEngineUnchecked) {
		t.Fatalf("want engine_unchecked, got %v", v)
	}
}

func TestAvailable(t *testing.T) {
	if !pgparse.Available() {
		t.Fatal("a cgo build must have the parser")
	}
}

// TestDeepChains: chains that make PostgreSQL's parser build very deep
// trees are rejected before parsing (at 30,000 links the C code would
// overflow its stack and kill the process); long flat lists still pass.
func TestDeepChains(t *testing.T) {
	const n = 30000
	for name, sql := range map[string]string{
		"operators":  "SELECT 1" + strings.Repeat("+1", n),
		"casts":      "SELECT 1" + strings.Repeat("::int", n),
		"joins":      "SELECT 1 FROM a" + strings.Repeat(" JOIN a ON true", n),
		"set ops":    "SELECT 1" + strings.Repeat(" UNION SELECT 1", n),
		"calls":      "SELECT " + strings.Repeat("abs(", n) + "1" + strings.Repeat(")", n),
		"unary":      "SELECT " + strings.Repeat("- ", n) + "1",
		"boolean":    "SELECT 1 WHERE " + strings.Repeat("NOT ", n) + "true",
		"comparison": "SELECT 1 WHERE 1" + strings.Repeat(" < 1", n),
	} {
		if v := pgparse.Check(sql, pgOpts); v.Allowed || !v.Has(sqlguard.CodeTooLarge) {
			t.Errorf("%s: want too_large, got %.200v", name, v)
		}
	}
	in := "SELECT 1 WHERE 'x' IN ('a'" + strings.Repeat(", 'abc'", 5000) + ")"
	if v := pgparse.Check(in, pgOpts); !v.Allowed {
		t.Errorf("a long IN list: %.200v", v)
	}
}
