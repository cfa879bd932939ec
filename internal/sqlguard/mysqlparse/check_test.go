package mysqlparse

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

type hit struct {
	Code string
	Pos  int
}

func hits(v sqlguard.Verdict) []hit {
	var out []hit
	for _, x := range v.Violations {
		out = append(out, hit{x.Code, x.Pos})
	}
	return out
}

func TestCheck(t *testing.T) {
	tests := []struct {
		sql       string
		want      []hit // nil: allowed
		statement string
		funcs     []string
		limit     bool
	}{
		{sql: "SELECT 1", statement: "select"},
		{sql: "  SELECT id FROM t LIMIT 5", statement: "select", limit: true},
		{sql: "TABLE t LIMIT 3", statement: "table", limit: true},
		{sql: "VALUES ROW(1), ROW(2)", statement: "values"},
		{sql: "WITH a AS (SELECT 1) SELECT * FROM a", statement: "with"},
		{sql: "SELECT 1 UNION SELECT 2 LIMIT 1", statement: "select", limit: true},
		{sql: "EXPLAIN FORMAT=TREE SELECT 1", statement: "explain"},
		{sql: "explain format = tree (SELECT 1)", statement: "explain"},
		{sql: "EXPLAIN FORMAT=JSON INTO @v SELECT 1", want: []hit{{sqlguard.CodeSyntax, 20}}},
		{sql: "EXPLAIN FORMAT=TREE DELETE FROM t", want: []hit{{sqlguard.CodeSyntax, 15}}},
		{sql: "SELECT payload->>'$.a' FROM e", statement: "select", funcs: []string{"json_unquote", "json_extract"}},
		{sql: "SELECT DATE '2024-01-01', NOW() + INTERVAL 1 DAY", statement: "select", funcs: []string{"date", "date_add", "now"}},
		{sql: "SELECT STD(x), COUNT(*) OVER () FROM t", statement: "select", funcs: []string{"stddev_pop", "count"}},

		{sql: "SELECT jt.a FROM t, JSON_TABLE(t.doc, '$[*]' COLUMNS (a INT PATH '$.a', n FOR ORDINALITY, NESTED PATH '$.c[*]' COLUMNS (c DECIMAL(10,2) PATH '$' DEFAULT '0' ON EMPTY))) AS jt",
			statement: "select", funcs: []string{"json_table"}},
		{sql: "SELECT * FROM json_table(UPPER(doc), '$' COLUMNS (a INT PATH '$')) j, JSON_TABLE((SELECT d FROM x, JSON_TABLE(x.d, '$' COLUMNS (b INT PATH '$')) k LIMIT 1), '$' COLUMNS (c INT PATH '$')) m",
			statement: "select", funcs: []string{"json_table", "upper"}},
		{sql: "SELECT * FROM JSON_TABLE(SLEEP(1), '$' COLUMNS (a INT PATH '$')) j", want: []hit{{sqlguard.CodeFunctionNotAllowed, 25}},
			statement: "select", funcs: []string{"json_table", "sleep"}},
		{sql: "SELECT * FROM JSON_TABLE(doc, '$' COLUMNS (a INT PATH '$' DEFAULT SLEEP(1) ON EMPTY)) j", want: []hit{{sqlguard.CodeSyntax, 24}}},
		{sql: "SELECT db.JSON_TABLE(doc, '$' COLUMNS (a INT PATH '$'))", want: []hit{{sqlguard.CodeSyntax, 30}}},
		{sql: "SELECT * FROM JSON_TABLE(doc, '$' COLUMNS (a INT PATH '$'), (SELECT 1)) j", want: []hit{{sqlguard.CodeSyntax, 24}}},
		{sql: "SELECT SLEEP(1)", want: []hit{{sqlguard.CodeFunctionNotAllowed, 7}}, statement: "select", funcs: []string{"sleep"}},
		{sql: "SELECT `sleep`(1)", want: []hit{{sqlguard.CodeFunctionNotAllowed, 7}}, statement: "select", funcs: []string{"sleep"}},
		{sql: "SELECT a FROM t WHERE b = udf_x(1)", want: []hit{{sqlguard.CodeFunctionNotAllowed, 26}}, statement: "select", funcs: []string{"udf_x"}},
		{sql: "SELECT db.f(1)", want: []hit{{sqlguard.CodeFunctionNotAllowed, 7}}, statement: "select", funcs: []string{"db.f"}},
		{sql: "SELECT NEXT VALUE FOR s", want: []hit{{sqlguard.CodeFunctionNotAllowed, 7}, {CodeConstruct, 0}}, statement: "select", funcs: []string{"nextval"}},
		{sql: "SELECT * FROM t INTO OUTFILE '/x'", want: []hit{{sqlguard.CodeInto, 16}}, statement: "select"},
		{sql: "SELECT 1 UNION SELECT 2 INTO OUTFILE '/x'", want: []hit{{sqlguard.CodeInto, 24}}, statement: "select"},
		{sql: "SELECT * FROM (SELECT * FROM t FOR UPDATE) s", want: []hit{{sqlguard.CodeLocking, 31}}, statement: "select"},
		{sql: "SELECT * FROM t LOCK IN SHARE MODE", want: []hit{{sqlguard.CodeLocking, 16}}, statement: "select"},
		{sql: "SELECT * FROM t FOR SHARE", want: []hit{{sqlguard.CodeLocking, 16}}, statement: "select"},
		{sql: "SELECT @a := 1", want: []hit{{sqlguard.CodeVariableAssignment, 7}}, statement: "select"},
		{sql: "EXPLAIN ANALYZE SELECT 1", want: []hit{{sqlguard.CodeExplainAnalyze, 8}}, statement: "explain"},
		{sql: "EXPLAIN DELETE FROM t", want: []hit{{sqlguard.CodeStatementNotAllowed, 0}}, statement: "explain"},
		{sql: "DESCRIBE t", want: []hit{{sqlguard.CodeStatementNotAllowed, 0}}, statement: "explain"},
		{sql: "ANALYZE SELECT 1", want: []hit{{sqlguard.CodeStatementNotAllowed, 0}}},
		{sql: "DO 1", want: []hit{{sqlguard.CodeStatementNotAllowed, 0}}},
		{sql: "SET @x = 1", want: []hit{{sqlguard.CodeStatementNotAllowed, 0}}},
		{sql: "SELECT 1; SELECT 2", want: []hit{{sqlguard.CodeMultipleStatements, 10}}},
		{sql: "SELECT 1 FROM t WHERE WHERE", want: []hit{{sqlguard.CodeSyntax, 22}}},
		{sql: "SELECT 1 INTO @x", want: []hit{{sqlguard.CodeSyntax, 14}}},
		{sql: "/* only a comment */", want: []hit{{sqlguard.CodeEmpty, 0}}},
		{sql: "SELECT * FROM t AS OF TIMESTAMP NOW()", want: []hit{{CodeConstruct, 0}}, statement: "select", funcs: []string{"now"}},
		{sql: "SELECT SLEEP(1), BENCHMARK(1, 1) FROM t FOR UPDATE", statement: "select", funcs: []string{"sleep", "benchmark"},
			want: []hit{{sqlguard.CodeLocking, 40}, {sqlguard.CodeFunctionNotAllowed, 7}, {sqlguard.CodeFunctionNotAllowed, 17}}},
	}
	c := New(DefaultSQLMode)
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			v := c.Check(context.Background(), tt.sql, sqlguard.Options{Dialect: quarry.DialectMySQL})
			if diff := cmp.Diff(tt.want, hits(v)); diff != "" {
				t.Errorf("violations (-want +got):\n%s\n%s", diff, v)
			}
			if v.Allowed != (tt.want == nil) {
				t.Errorf("Allowed = %v with %d violations", v.Allowed, len(v.Violations))
			}
			if v.Statement != tt.statement || v.HasLimit != tt.limit || v.Dialect != quarry.DialectMySQL {
				t.Errorf("statement %q limit %v dialect %q, want %q %v mysql", v.Statement, v.HasLimit, v.Dialect, tt.statement, tt.limit)
			}
			if diff := cmp.Diff(tt.funcs, v.Functions); diff != "" {
				t.Errorf("functions (-want +got):\n%s", diff)
			}
			for _, x := range v.Violations {
				if x.Message == "" || x.Pos < 0 || x.Pos > len(tt.sql) {
					t.Errorf("bad violation %+v", x)
				}
			}
		})
	}
}

func TestExtraFunctions(t *testing.T) {
	c := New(DefaultSQLMode)
	ctx := context.Background()
	opts := sqlguard.Options{ExtraFunctions: []string{"my_udf", "app.f", "sleep"}}
	for sql, allowed := range map[string]bool{
		"SELECT my_udf(1)":    true,
		"SELECT MY_UDF(1)":    true,
		"SELECT app.f(1)":     true,
		"SELECT other.f(1)":   false,
		"SELECT sleep(1)":     false, // never allowed, whatever the list says
		"SELECT app.sleep(1)": false,
	} {
		if v := c.Check(ctx, sql, opts); v.Allowed != allowed {
			t.Errorf("%s: got %s, want allowed=%v", sql, v, allowed)
		}
	}
}

func TestSQLMode(t *testing.T) {
	tests := []struct {
		mode    string
		refused string // a word the refusal names; "" when the mode is supported
	}{
		{DefaultSQLMode, ""},
		{MariaDBDefaultSQLMode, ""},
		{"", ""},
		{"traditional,pipes_as_concat", ""},
		{"STRICT_ALL_TABLES, EMPTY_STRING_IS_NULL,SIMULTANEOUS_ASSIGNMENT", ""},
		{"NO_BACKSLASH_ESCAPES", "NO_BACKSLASH_ESCAPES"},
		{"STRICT_TRANS_TABLES,ansi_quotes", "ANSI_QUOTES"},
		{"ANSI", "ANSI_QUOTES"},
		{"ORACLE", "ANSI_QUOTES"},
		{"MSSQL", "ANSI_QUOTES"},
		{"NO_SUCH_MODE", "NO_SUCH_MODE"},
	}
	for _, tt := range tests {
		c := New(tt.mode)
		v := c.Check(context.Background(), "SELECT 1", sqlguard.Options{})
		if tt.refused == "" {
			if c.Err() != nil || !v.Allowed {
				t.Errorf("mode %q: err %v, verdict %s; want supported", tt.mode, c.Err(), v)
			}
			continue
		}
		if c.Err() == nil || v.Allowed || !v.Has(CodeSQLMode) || !strings.Contains(v.Violations[0].Message, tt.refused) {
			t.Errorf("mode %q: err %v, verdict %s; want refused naming %s", tt.mode, c.Err(), v, tt.refused)
		}
		if c.SQLMode() != tt.mode {
			t.Errorf("SQLMode() = %q", c.SQLMode())
		}
	}
}

// TestPipesAsConcat: the mode reaches the parser (|| is concat, not OR).
func TestPipesAsConcat(t *testing.T) {
	v := New("PIPES_AS_CONCAT").Check(context.Background(), "SELECT 'a' || 'b'", sqlguard.Options{})
	if diff := cmp.Diff([]string{"concat"}, v.Functions); !v.Allowed || diff != "" {
		t.Errorf("got %s, functions %v", v, v.Functions)
	}
	v = New(DefaultSQLMode).Check(context.Background(), "SELECT 'a' || 'b'", sqlguard.Options{})
	if !v.Allowed || len(v.Functions) != 0 {
		t.Errorf("default mode: got %s, functions %v", v, v.Functions)
	}
}

func TestLimitsAndCancel(t *testing.T) {
	c := New(DefaultSQLMode)
	v := c.Check(context.Background(), "SELECT "+strings.Repeat("1+", 100)+"1", sqlguard.Options{MaxBytes: 50})
	if !v.Has(sqlguard.CodeTooLarge) {
		t.Errorf("over the size limit: %s", v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v := c.Check(ctx, "SELECT 1", sqlguard.Options{}); v.Allowed || !v.Has(CodeUnchecked) {
		t.Errorf("cancelled: %s", v)
	}
}

// TestConcurrent: one Checker serves many goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	c := New(DefaultSQLMode)
	stmts := []string{"SELECT a, COUNT(*) FROM t GROUP BY a", "SELECT SLEEP(1)", "SELECT 1 UNION SELECT 2 INTO OUTFILE '/x'"}
	want := []bool{true, false, false}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				k := (g + i) % len(stmts)
				if v := c.Check(context.Background(), stmts[k], sqlguard.Options{}); v.Allowed != want[k] {
					t.Errorf("%s: %s", stmts[k], v)
					return
				}
			}
		}()
	}
	wg.Wait()
}
