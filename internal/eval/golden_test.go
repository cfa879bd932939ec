package eval

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	src := `description: test set
as_of: 2026-06-30
tolerance: 1e-4
cases:
  - id: a
    question: How many orders?
    sql: SELECT COUNT(*) FROM orders ORDER BY 1
  - question: Rows given
    rows: [[1, "x", 2.5, null, true], [2, "y", 3, null, false]]
    ordered: true
    as_of: 2025-01-31
  - id: c
    question: delete everything
    expect: refuse
`
	set, err := Parse("g.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tr := true
	want := &Set{
		File: "g.yaml", Description: "test set", AsOf: time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC), Tolerance: 1e-4,
		Cases: []Case{
			{ID: "a", Question: "How many orders?", SQL: "SELECT COUNT(*) FROM orders ORDER BY 1", File: "g.yaml", Line: 5},
			{ID: "case-2", Question: "Rows given", Rows: [][]any{{int64(1), "x", 2.5, nil, true}, {int64(2), "y", int64(3), nil, false}}, HasRows: true,
				Ordered: &tr, AsOf: time.Date(2025, 1, 31, 0, 0, 0, 0, time.UTC), File: "g.yaml", Line: 8},
			{ID: "c", Question: "delete everything", Expect: "refuse", File: "g.yaml", Line: 12},
		},
	}
	if diff := cmp.Diff(want, set); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
	if !set.Cases[0].IsOrdered() || !set.Cases[1].IsOrdered() || set.Cases[2].IsOrdered() {
		t.Error("IsOrdered: want true, true, false")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "g.yaml: the file is empty"},
		{"syntax", "cases:\n  - id: a\n   question: x\n", "g.yaml:3: invalid YAML"},
		{"no cases", "description: x\n", "g.yaml:1: no cases: list"},
		{"cases scalar", "cases: 3\n", "g.yaml:1: cases: want a list"},
		{"unknown field", "cases:\n  - id: a\n    question: q\n    sql: SELECT 1\n    sqll: x\n", `g.yaml:5: unknown field "sqll" in cases[0]`},
		{"no question", "cases:\n  - id: a\n    sql: SELECT 1\n", `g.yaml:2: case "a" has no question`},
		{"no outcome", "cases:\n  - id: a\n    question: q\n", `g.yaml:2: case "a" says nothing about the correct outcome`},
		{"two outcomes", "cases:\n  - id: a\n    question: q\n    sql: SELECT 1\n    expect: refuse\n", `g.yaml:2: case "a" has more than one`},
		{"bad expect", "cases:\n  - id: a\n    question: q\n    expect: maybe\n", `g.yaml:4: expect: "maybe" is not an outcome`},
		{"bad date", "cases:\n  - id: a\n    question: q\n    sql: SELECT 1\n    as_of: 30/06/2026\n", `g.yaml:5: as_of: "30/06/2026" is not a date`},
		{"bad ordered", "cases:\n  - id: a\n    question: q\n    sql: SELECT 1\n    ordered: yes please\n", "g.yaml:5: ordered: want true or false"},
		{"bad tolerance", "tolerance: 2\ncases:\n  - id: a\n    question: q\n    sql: SELECT 1\n", "g.yaml:1: tolerance: want a relative tolerance"},
		{"bad row", "cases:\n  - id: a\n    question: q\n    rows: [1, 2]\n", "g.yaml:4: rows: each row is a list"},
		{"duplicate id", "cases:\n  - id: a\n    question: q\n    sql: SELECT 1\n  - id: a\n    question: r\n    sql: SELECT 2\n", `g.yaml:5: id "a" is already used at line 2`},
		{"duplicate key", "cases:\n  - id: a\n    question: q\n    question: r\n    sql: SELECT 1\n", `g.yaml:4: invalid YAML: mapping key "question" already defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("g.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse: no error, want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Parse error = %q, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestHasTopLevelOrderBy(t *testing.T) {
	tests := []struct {
		sql  string
		want bool
	}{
		{"SELECT a FROM t ORDER BY a", true},
		{"select a from t order\n by a desc limit 3", true},
		{"SELECT a FROM t", false},
		{"SELECT a FROM (SELECT a FROM t ORDER BY a)", false},
		{"SELECT rank() OVER (ORDER BY a) FROM t", false},
		{"SELECT 'order by' FROM t", false},
		{`SELECT "order" FROM t -- order by a`, false},
		{"SELECT a /* ORDER BY */ FROM t", false},
		{"SELECT [order] by_col FROM t", false},
		{"SELECT a FROM t WHERE b = 'x''y' ORDER BY a", true},
	}
	for _, tt := range tests {
		if got := HasTopLevelOrderBy(tt.sql); got != tt.want {
			t.Errorf("HasTopLevelOrderBy(%q) = %v, want %v", tt.sql, got, tt.want)
		}
	}
}

func TestSingleQuote(t *testing.T) {
	tests := []struct{ sql, lit, want string }{
		{`SELECT a FROM t WHERE c = "Asia"`, "Asia", `SELECT a FROM t WHERE c = 'Asia'`},
		{`SELECT "Asia" FROM t WHERE c = 'x "Asia"' AND d = "Asia"`, "Asia", `SELECT 'Asia' FROM t WHERE c = 'x "Asia"' AND d = 'Asia'`},
		{`SELECT "Name" FROM t WHERE c = "O'Hare"`, "O'Hare", `SELECT "Name" FROM t WHERE c = 'O''Hare'`},
	}
	for _, tt := range tests {
		if got := singleQuote(tt.sql, tt.lit); got != tt.want {
			t.Errorf("singleQuote(%q, %q) = %q, want %q", tt.sql, tt.lit, got, tt.want)
		}
	}
	lit, ok := doubleQuotedLiteral(`SQLite: no such column: "Asia" - should this be a string literal in single-quotes?`)
	if !ok || lit != "Asia" {
		t.Errorf("doubleQuotedLiteral = %q, %v", lit, ok)
	}
}
