package mysqlparse

import (
	"context"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/quarrydata/quarry/internal/sqlguard"
)

// FuzzMySQLCheck: Check never panics; a rejection carries well-formed
// violations; and whatever it allows, a fresh parser reads as exactly one
// query (SELECT, a set operation, or EXPLAIN without ANALYZE of one) with
// no INTO or locking clause at any depth.
func FuzzMySQLCheck(f *testing.F) {
	for _, cases := range mysqlCases(f) {
		for _, c := range cases {
			f.Add(c.SQL)
		}
	}
	c := New(DefaultSQLMode)
	f.Fuzz(func(t *testing.T, sql string) {
		done := make(chan sqlguard.Verdict, 1)
		go func() { done <- c.Check(context.Background(), sql, sqlguard.Options{}) }()
		var v sqlguard.Verdict
		select {
		case v = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("the check took over 5s: %q", sql)
		}
		if !v.Allowed {
			if len(v.Violations) == 0 {
				t.Fatalf("rejected without a violation: %q", sql)
			}
			for _, x := range v.Violations {
				if x.Code == "" || x.Message == "" || x.Pos < 0 || x.Pos > len(sql) {
					t.Fatalf("bad violation %+v for %q", x, sql)
				}
			}
			return
		}
		if len(v.Violations) != 0 {
			t.Fatalf("allowed with violations: %q", sql)
		}
		text, _ := rewriteJSONTables(sql)
		stmts, _, err := parser.New().ParseSQL(text)
		if err != nil || len(stmts) != 1 {
			alt, ok := blankTreeFormat(text)
			if !ok {
				t.Fatalf("allowed but a fresh parser reads %d statements (%v): %q", len(stmts), err, sql)
			}
			if stmts, _, err = parser.New().ParseSQL(alt); err != nil || len(stmts) != 1 {
				t.Fatalf("allowed but a fresh parser reads %d statements (%v): %q", len(stmts), err, alt)
			}
		}
		s := stmts[0]
		if e, ok := s.(*ast.ExplainStmt); ok {
			if e.Analyze {
				t.Fatalf("allowed EXPLAIN ANALYZE: %q", sql)
			}
			s = e.Stmt
		}
		switch s.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt:
		default:
			t.Fatalf("allowed a %T: %q", s, sql)
		}
		s.Accept(&invariant{t: t, sql: sql})
	})
}

// invariant fails the test on an INTO or locking clause anywhere.
type invariant struct {
	t   *testing.T
	sql string
}

func (iv *invariant) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SelectStmt:
		if x.SelectIntoOpt != nil || (x.LockInfo != nil && x.LockInfo.LockType != ast.SelectLockNone) {
			iv.t.Fatalf("allowed INTO or locking: %q", iv.sql)
		}
	case *ast.VariableExpr:
		if x.Value != nil {
			iv.t.Fatalf("allowed a variable assignment: %q", iv.sql)
		}
	case *ast.FuncCallExpr:
		if sqlguard.Never(x.FnName.L) {
			iv.t.Fatalf("allowed %s(): %q", x.FnName.L, iv.sql)
		}
	}
	return n, false
}

func (iv *invariant) Leave(n ast.Node) (ast.Node, bool) { return n, true }
