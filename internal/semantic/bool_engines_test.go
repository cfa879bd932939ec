package semantic

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestBooleanEveryEngine: a yes/no column's values, written "true" and
// "false" in the knowledge, pick its rows on every engine, whether it
// stores 1 and 0 (SQLite's and MySQL's BOOLEAN) or booleans (found from
// outside: "how many menu items are discontinued" compared the column
// with the text 'true' and answered 0 of 7).
func TestBooleanEveryEngine(t *testing.T) {
	m := &Model{
		Entities: []Entity{{Name: "bl_items", PrimaryKey: "id", Columns: []Column{
			{Name: "id", Type: "int"}, {Name: "discontinued", Type: quarry.TypeBool, Values: []string{"false", "true"}}}}},
		Metrics: []Metric{{Name: "items", Entity: "bl_items", Expr: "COUNT(bl_items.id)"}},
	}
	cases := []struct {
		name string
		f    Filter
		want string
	}{
		{"discontinued", Filter{Field: "bl_items.discontinued", Op: OpEq, Values: []any{"true"}}, "3"},
		{"not discontinued", Filter{Field: "bl_items.discontinued", Op: OpEq, Values: []any{"false"}}, "2"},
		{"other than discontinued", Filter{Field: "bl_items.discontinued", Op: OpNe, Values: []any{"true"}}, "3"},
		{"in", Filter{Field: "bl_items.discontinued", Op: OpIn, Values: []any{"TRUE"}}, "3"},
	}
	const create = "CREATE TEMPORARY TABLE bl_items (id INTEGER PRIMARY KEY, discontinued BOOLEAN)"
	const insert = "INSERT INTO bl_items VALUES (1, TRUE), (2, TRUE), (3, TRUE), (4, FALSE), (5, FALSE), (6, NULL)"
	run := func(t *testing.T, d quarry.Dialect, count func(string) string) {
		for _, tc := range cases {
			c, err := Compile(m, Query{Metrics: []string{"items"}, Filters: []Filter{tc.f}}, d)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if got := count(c.SQL); got != tc.want {
				t.Errorf("%s: %s rows, want %s\n%s", tc.name, got, tc.want, c.SQL)
			}
		}
	}
	for _, e := range testServers() {
		t.Run(string(e.d), func(t *testing.T) {
			conn := e.open(t)
			for _, s := range []string{create, insert} {
				if _, err := conn.ExecContext(context.Background(), s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			run(t, e.d, func(q string) string { return collect(t, conn, q)[0][0] })
		})
	}
	t.Run("sqlite", func(t *testing.T) {
		conn, err := sqlite3.Open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		for _, s := range []string{create, insert} {
			if err := conn.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		run(t, quarry.DialectSQLite, func(q string) string { return query(t, conn, q)[0][0] })
	})
	if diff := cmp.Diff("TRUE", func() string { l, _ := BoolLiteral("True"); return l }()); diff != "" {
		t.Error(diff)
	}
}
