package sqlguard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestCodes has at least one statement per rule code and checks that the
// first violation has that code at the expected position.
func TestCodes(t *testing.T) {
	pg, my, lite, duck, any := quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectSQLite, quarry.DialectDuckDB, quarry.DialectGeneric
	tests := []struct {
		d    quarry.Dialect
		sql  string
		code string
		pos  int
	}{
		{any, "SELECT '\xff'", CodeEncoding, 8},
		{any, "SELECT 1\x00", CodeNUL, 8},
		{any, "SELECT " + strings.Repeat("1", DefaultMaxBytes), CodeTooLarge, DefaultMaxBytes},
		{any, "  -- only a comment\n", CodeEmpty, 0},
		{any, "", CodeEmpty, 0},
		{any, ";", CodeEmpty, 0},
		{any, "SELECT\u00a0id FROM t", CodeNonASCII, 6},
		{any, "SELECT 'a\u2066b'", CodeBidi, 9},
		{any, "SELECT 1\f", CodeControlChar, 8},
		{any, "SELECT 'abc", CodeUnterminated, 7},
		{pg, "SELECT $x$abc", CodeUnterminated, 7},
		{any, "SELECT 1 /* a /* b */ */", CodeNestedComment, 14},
		{any, "SELECT 'a\\'", CodeBackslash, 9},
		{any, "SELECT 1 \\", CodeBackslash, 9},
		{pg, "SELECT U&\"nextv!0061l\" UESCAPE '!'('s')", CodeBackslash, 23},
		{lite, "SELECT $1", CodeDollar, 7},
		{my, "SELECT a$b FROM t", CodeDollar, 8},
		{pg, "SELECT $ 1", CodeDollar, 7},
		{my, "SELECT /*! 1 */", CodeExecutableComment, 7},
		{any, "SELECT /*M! 1 */ 2", CodeExecutableComment, 7},
		{my, "SELECT 1 # c", CodeHashComment, 9},
		{lite, "SELECT 1 # c", CodeHashComment, 9},
		{my, "SELECT 1 --c", CodeDashComment, 9},
		{lite, "SELECT [a] FROM t", CodeBracketIdentifier, 7},
		{pg, "SELECT `a` FROM t", CodeBacktick, 7},
		{duck, "SELECT `a` FROM t", CodeBacktick, 7},
		{any, ".read x.sql", CodeMetaCommand, 0},
		{pg, "\\! id", CodeMetaCommand, 0},
		{any, "SELECT 1; SELECT 2", CodeMultipleStatements, 10},
		{any, "SELECT (1", CodeSyntax, 9},
		{any, "SELECT 1)", CodeSyntax, 8},
		{any, "SELECT " + strings.Repeat("(", maxDepth+1) + "1" + strings.Repeat(")", maxDepth+1), CodeSyntax, 7 + maxDepth},
		{any, "WITH AS (SELECT 1) SELECT 2", CodeSyntax, 5},
		{any, "SHOW TABLES", CodeStatementNotAllowed, 0},
		{lite, "TABLE t", CodeStatementNotAllowed, 0},
		{any, "EXPLAIN EXPLAIN SELECT 1", CodeStatementNotAllowed, 8},
		{my, "EXPLAIN FOR CONNECTION 5", CodeStatementNotAllowed, 8},
		{any, "EXPLAIN ANALYZE SELECT 1", CodeExplainAnalyze, 8},
		{pg, "EXPLAIN (analyse) SELECT 1", CodeExplainAnalyze, 9},
		{pg, "WITH d AS (DELETE FROM t RETURNING *) SELECT 1", CodeDataModifyingCTE, 11},
		{any, "SELECT 1 FROM t WHERE drop = 1", CodeWriteKeyword, 22},
		{any, "SELECT * FROM t INTO OUTFILE '/tmp/x'", CodeInto, 16},
		{any, "SELECT * FROM t FOR UPDATE", CodeLocking, 16},
		{my, "SELECT * FROM t LOCK IN SHARE MODE", CodeLocking, 16},
		{my, "SELECT @a := 1", CodeVariableAssignment, 10},
		{any, "SELECT pg_sleep(1)", CodeFunctionNotAllowed, 7},
		{any, "SELECT my_udf(1)", CodeFunctionNotAllowed, 7},
		{my, "SELECT 1sleep(2)", CodeFunctionNotAllowed, 8},
		{lite, "SELECT main.lower('A')", CodeFunctionNotAllowed, 12},
		{duck, "SELECT * FROM '/etc/passwd'", CodeFileAccess, 14},
		{duck, "SELECT * FROM \"data.parquet\"", CodeFileAccess, 14},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		v := Check(tt.sql, Options{Dialect: tt.d})
		if v.Allowed || len(v.Violations) == 0 {
			t.Errorf("[%s] %.60q allowed, want %s", tt.d, tt.sql, tt.code)
			continue
		}
		got := v.Violations[0]
		if got.Code != tt.code || got.Pos != tt.pos {
			t.Errorf("[%s] %.60q: first violation %s at %d (%s), want %s at %d", tt.d, tt.sql, got.Code, got.Pos, got.Message, tt.code, tt.pos)
		}
		if got.Message == "" || strings.Contains(got.Message, "\n") {
			t.Errorf("[%s] %.60q: message %q must be one non-empty line", tt.d, tt.sql, got.Message)
		}
		seen[tt.code] = true
	}
	for _, c := range Codes() {
		if !seen[c] {
			t.Errorf("no table test for code %s", c)
		}
	}
}

// TestAllows covers analytics SQL that over-blocking guards refuse.
func TestAllows(t *testing.T) {
	tests := []struct {
		d    quarry.Dialect
		sql  string
		kind string
	}{
		{quarry.DialectPostgres, "SELECT x, lag(x) OVER w FROM t WINDOW w AS (ORDER BY x)", "select"},
		{quarry.DialectPostgres, "SELECT * FROM a, LATERAL (SELECT * FROM b WHERE b.id = a.id LIMIT 1) s", "select"},
		{quarry.DialectPostgres, "SELECT a, SUM(b) FROM t GROUP BY CUBE (a)", "select"},
		{quarry.DialectPostgres, "SELECT doc -> 'a' ->> 'b', doc ? 'c', doc ?| ARRAY['d'] FROM t", "select"},
		{quarry.DialectPostgres, "SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace", "select"},
		{quarry.DialectPostgres, "WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SEARCH DEPTH FIRST BY n SET ord SELECT * FROM r", "with"},
		{quarry.DialectPostgres, "SELECT id FROM t WHERE id = $1", "select"},
		{quarry.DialectPostgres, "SELECT 1.5e3, 0x1F, 1_000", "select"},
		{quarry.DialectMySQL, "EXPLAIN FORMAT=JSON SELECT * FROM t", "explain"},
		{quarry.DialectMySQL, "SELECT * FROM t WHERE MATCH (a) AGAINST ('x')", "select"},
		{quarry.DialectMySQL, "SELECT SUBSTRING_INDEX(email, '@', -1) FROM users USE INDEX (idx_email)", "select"},
		{quarry.DialectSQLite, "SELECT x FROM t WHERE x GLOB 'a*' AND y ISNULL", "select"},
		{quarry.DialectSQLite, "SELECT 1 --no space is a comment in SQLite", "select"},
		{quarry.DialectGeneric, "VALUES (1, 2), (3, 4)", "values"},
		{quarry.DialectGeneric, "SELECT 1 -- trailing\r\n", "select"},
		{quarry.DialectDuckDB, "FROM orders SELECT count(*)", "select"},
	}
	for _, tt := range tests {
		v := Check(tt.sql, Options{Dialect: tt.d})
		if !v.Allowed || v.Statement != tt.kind {
			t.Errorf("[%s] %q = %s (kind %q), want allowed %s", tt.d, tt.sql, v, v.Statement, tt.kind)
		}
	}
}

func TestVerdictFields(t *testing.T) {
	v := Check("SELECT COUNT(*), Lower(a), pg_catalog.upper(b), lower(c) FROM t WHERE x IN (SELECT y FROM u LIMIT 1) LIMIT 10", Options{Dialect: quarry.DialectPostgres})
	want := Verdict{Allowed: true, Dialect: quarry.DialectPostgres, Statement: "select", Functions: []string{"count", "lower", "upper"}, HasLimit: true}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("verdict (-want +got):\n%s", diff)
	}
	if v := Check("SELECT a FROM t WHERE x IN (SELECT y FROM u LIMIT 1)", Options{}); v.HasLimit {
		t.Error("a LIMIT inside a subquery is not a top-level LIMIT")
	}
	if v := Check("SELECT a FROM t OFFSET 5 ROWS FETCH FIRST 5 ROWS ONLY", Options{Dialect: quarry.DialectPostgres}); !v.HasLimit {
		t.Error("FETCH FIRST is a limit")
	}
}

func TestVerdictDisplay(t *testing.T) {
	ok := Check("SELECT 1", Options{})
	if ok.String() != "allowed: select" || ok.Err() != nil {
		t.Errorf("allowed: %q %v", ok.String(), ok.Err())
	}
	bad := Check("DELETE FROM t", Options{})
	if !strings.HasPrefix(bad.String(), "rejected: statement_not_allowed at byte 0: DELETE is not a query") || !strings.HasSuffix(bad.String(), "(+1 more)") {
		t.Errorf("rejected: %q", bad.String())
	}
	err := bad.Err()
	if quarry.KindOf(err) != quarry.KindRejected || quarry.ExitCode(err) != quarry.ExitRejected {
		t.Errorf("Err kind %v", quarry.KindOf(err))
	}
	m := Merge(ok, bad)
	if m.Allowed || len(m.Violations) != len(bad.Violations) || m.Statement != "select" {
		t.Errorf("Merge = %+v", m)
	}
	if !Merge(ok, ok).Allowed {
		t.Error("Merge of two allowed verdicts must allow")
	}
}

func TestFunctionsPolicy(t *testing.T) {
	o := Options{Dialect: quarry.DialectSQLite, ExtraFunctions: []string{" My_Func "}}
	if !o.AllowsFunction("my_func") || !o.AllowsFunction("STRFTIME") {
		t.Error("extra and listed functions must be allowed")
	}
	if o.AllowsFunction("date_format") {
		t.Error("a MySQL function is not on the SQLite list")
	}
	if (Options{ExtraFunctions: []string{"pg_sleep", "lo_import", "query_to_xml"}}).AllowsFunction("pg_sleep") {
		t.Error("never-allowed functions cannot be re-enabled")
	}
	ext := Options{Dialect: quarry.DialectPostgres, ExtraFunctions: []string{"ext.similarity", "ext.pg_sleep"}}
	if v := Check("SELECT ext.similarity(a, b), EXT.Similarity(a, b) FROM t", ext); !v.Allowed {
		t.Errorf("schema-qualified extra function: %s", v)
	}
	if Check("SELECT other.similarity(a, b) FROM t", ext).Allowed || Check("SELECT ext.pg_sleep(1)", ext).Allowed {
		t.Error("only the listed schema, and never a never-allowed name")
	}
	if !Check("SELECT my_func(1)", o).Allowed || Check("SELECT my_func(1)", Options{Dialect: quarry.DialectSQLite}).Allowed {
		t.Error("ExtraFunctions must reach Check")
	}
	for _, d := range []quarry.Dialect{quarry.DialectGeneric, quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectDuckDB} {
		for _, f := range AllowedFunctions(d) {
			if Never(f) {
				t.Errorf("%s: %s is both allowed and never allowed", d, f)
			}
		}
	}
}

func TestTokenize(t *testing.T) {
	toks, ok := Tokenize(`SELECT "a""b", 'x' FROM t1;`, quarry.DialectSQLite)
	if !ok {
		t.Fatal("not ok")
	}
	want := []Token{
		{TokenWord, "SELECT", 0}, {TokenQuoted, `a"b`, 7}, {TokenOp, ",", 13}, {TokenString, "'x'", 15},
		{TokenWord, "FROM", 19}, {TokenWord, "t1", 24}, {TokenOp, ";", 26},
	}
	if diff := cmp.Diff(want, toks); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	if _, ok := Tokenize("SELECT 'x", quarry.DialectSQLite); ok {
		t.Error("an unterminated literal must not tokenize cleanly")
	}
}

func TestTrackedList(t *testing.T) {
	unlisted, passing := compareTracked([]string{"a", "b"}, "# header\na\nc\n")
	if diff := cmp.Diff([]string{"b"}, unlisted); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"c"}, passing); diff != "" {
		t.Error(diff)
	}
}
