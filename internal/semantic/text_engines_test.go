package semantic

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// textModel is one table of names written in both cases, some with
// letters beyond ASCII.
func textModel() *Model {
	return &Model{Entities: []Entity{{Name: "tx_people", PrimaryKey: "id", Columns: []Column{
		{Name: "id", Type: "int"}, {Name: "name", Type: "text"}}}},
		Metrics: []Metric{{Name: "people", Entity: "tx_people", Expr: "COUNT(tx_people.id)"}}}
}

const peopleRows = "INSERT INTO tx_people VALUES (1, 'Östberg'), (2, 'östlund'), (3, 'Anders'), (4, 'ANNA'), (5, 'Bo_Ek'), (6, 'Boel'), (7, ''), (8, NULL)"

// TestTextFiltersEveryEngine: contains, starts with and ends with are
// without regard to case on every engine, letters beyond ASCII included,
// and a wildcard in the value matches only itself. SQLite folds ASCII
// letters alone (found from outside: "last name starts with 'Ö'" found
// none of 8 'Ö…' names, the pattern lowered to 'ö', and "starts with ö"
// none either).
func TestTextFiltersEveryEngine(t *testing.T) {
	rows := func(op Op, v string) Query {
		return Query{Rows: &RowsQuery{Entity: "tx_people", Columns: []string{"name"}}, Filters: []Filter{{Field: "tx_people.name", Op: op, Values: []any{v}}}, Order: []Order{{Field: "tx_people.id"}}}
	}
	cases := func() []struct {
		name string
		q    Query
		want [][]string
	} {
		o := [][]string{{"Östberg"}, {"östlund"}}
		return []struct {
			name string
			q    Query
			want [][]string
		}{
			{"starts with a", rows(OpPrefix, "a"), [][]string{{"Anders"}, {"ANNA"}}},
			{"starts with Ö", rows(OpPrefix, "Ö"), o},
			{"starts with ö", rows(OpPrefix, "ö"), o},
			{"contains östb", rows(OpLike, "östb"), [][]string{{"Östberg"}}},
			{"ends with NA", rows(OpSuffix, "NA"), [][]string{{"ANNA"}}},
			{"contains o_e", rows(OpLike, "o_e"), [][]string{{"Bo_Ek"}}},
			{"contains ST", rows(OpLike, "ST"), [][]string{{"Östberg"}, {"östlund"}}},
			// Text with nothing in it is as empty as NULL (found from
			// outside: "shipments with no notes" left out the '' ones).
			{"no name", Query{Metrics: []string{"people"}, Filters: []Filter{{Field: "tx_people.name", Op: OpNull}}}, [][]string{{"2"}}},
			{"a name", Query{Metrics: []string{"people"}, Filters: []Filter{{Field: "tx_people.name", Op: OpNotNull}}}, [][]string{{"6"}}},
		}
	}
	for _, e := range testServers() {
		t.Run(string(e.d), func(t *testing.T) {
			conn := e.open(t)
			ctx := context.Background()
			create := "CREATE TEMPORARY TABLE tx_people (id INTEGER PRIMARY KEY, name VARCHAR(40))"
			if e.d == quarry.DialectMySQL {
				create += " CHARACTER SET utf8mb4"
			}
			if e.d == quarry.DialectDuckDB {
				create = "CREATE TABLE tx_people (id INTEGER PRIMARY KEY, name VARCHAR)"
			}
			for _, s := range []string{create, peopleRows} {
				if _, err := conn.ExecContext(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			for _, tc := range cases() {
				c, err := Compile(textModel(), tc.q, e.d)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if diff := cmp.Diff(tc.want, collect(t, conn, c.SQL)); diff != "" {
					t.Errorf("%s (-want +got):\n%s\n%s", tc.name, diff, c.SQL)
				}
			}
		})
	}
	t.Run("sqlite", func(t *testing.T) {
		conn, err := sqlite3.Open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		for _, s := range []string{"CREATE TABLE tx_people (id INTEGER PRIMARY KEY, name TEXT)", peopleRows} {
			if err := conn.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range cases() {
			c, err := Compile(textModel(), tc.q, quarry.DialectSQLite)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if diff := cmp.Diff(tc.want, query(t, conn, c.SQL)); diff != "" {
				t.Errorf("%s (-want +got):\n%s\n%s", tc.name, diff, c.SQL)
			}
		}
	})
}
