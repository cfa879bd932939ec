package mysqlparse

import (
	"context"
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// TestImplicitCalls: MySQL syntax that runs a function without a plain
// name( call is checked as the function it is (->, ->>, CONVERT ...
// USING, MEMBER OF, INTERVAL arithmetic, NEXT VALUE FOR ...) or refused
// (:=); the rest calls only built-in code with no function name the
// allow-list could name (CAST, COLLATE, introducers, BINARY, REGEXP,
// comparisons). MySQL has no user-defined operators, types or casts, and
// t.f is always a column: (x).f does not parse.
func TestImplicitCalls(t *testing.T) {
	c := New(DefaultSQLMode)
	opts := sqlguard.Options{Dialect: quarry.DialectMySQL}
	tests := []struct {
		sql   string
		allow bool
		funcs []string // the functions recorded, in order
	}{
		{"SELECT j -> '$.a' FROM t", true, []string{"json_extract"}},
		{"SELECT j ->> '$.a' FROM t", true, []string{"json_unquote", "json_extract"}},
		{"SELECT CONVERT(x USING utf8mb4) FROM t", true, []string{"convert"}},
		{"SELECT CHAR(65 USING utf8mb4)", true, []string{"char"}},
		{"SELECT 1 MEMBER OF ('[1]')", true, []string{"member"}},
		{"SELECT x + INTERVAL 1 DAY FROM t", true, []string{"date_add"}},
		{"SELECT DATE '2024-01-01'", true, []string{"date"}},
		{"SELECT TRIM(LEADING 'a' FROM x), POSITION('a' IN x), EXTRACT(YEAR FROM x) FROM t", true, []string{"trim", "position", "extract"}},
		{"SELECT CAST(x AS CHAR), CONVERT(x, CHAR), CAST(x AS JSON) FROM t", true, nil},
		{"SELECT x COLLATE utf8mb4_bin, _utf8mb4'x', BINARY x FROM t", true, nil},
		{"SELECT x REGEXP 'a', x LIKE 'a' ESCAPE '!', 1 <=> 2, x IS TRUE, ROW(1, 2) = ROW(1, 2), x DIV 2 FROM t", true, nil},
		{"SELECT t.sleep, t.benchmark FROM t", true, nil},
		{"SELECT WEIGHT_STRING(x) FROM t", false, []string{"weight_string"}},
		{"SELECT NEXT VALUE FOR s", false, []string{"nextval"}},
		{"SELECT `sleep`(1)", false, []string{"sleep"}},
		{"SELECT db.sleep(1)", false, []string{"db.sleep"}},
		{"SELECT @x := 1", false, nil},
		{"SELECT (t.x).sleep FROM t", false, nil},
		{"SELECT VALUES(x) FROM t", false, nil},
	}
	for _, tt := range tests {
		v := c.Check(context.Background(), tt.sql, opts)
		if v.Allowed != tt.allow {
			t.Errorf("%q: allowed=%v, want %v: %v", tt.sql, v.Allowed, tt.allow, v)
		}
		if !slices.Equal(v.Functions, tt.funcs) {
			t.Errorf("%q: functions %q, want %q", tt.sql, v.Functions, tt.funcs)
		}
	}
}
