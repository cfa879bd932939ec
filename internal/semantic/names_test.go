package semantic

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestRowsNamesColumn: a list of one entity's rows marks the column that
// names each row — its label, else its key — for the answer to name the
// rows by; a list that shows neither marks none, and a joined table's
// label does not name the listed rows.
func TestRowsNamesColumn(t *testing.T) {
	m := loadModel(t)
	for _, tc := range []struct {
		name string
		q    RowsQuery
		want string // "" = no column marked
	}{
		{"label", RowsQuery{Entity: "customers", Columns: []string{"country", "name", "id"}}, "name"},
		{"default columns, label", RowsQuery{Entity: "products"}, "name"},
		{"no label: the key", RowsQuery{Entity: "support_tickets", Columns: []string{"id", "opened_at", "priority", "category"}}, "id"},
		{"no label, default columns", RowsQuery{Entity: "support_tickets"}, "id"},
		{"neither", RowsQuery{Entity: "support_tickets", Columns: []string{"priority", "category"}}, ""},
		{"label left out: the key", RowsQuery{Entity: "customers", Columns: []string{"id", "country"}}, "id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			c, err := Compile(m, Query{Rows: &q}, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, o := range c.Columns {
				if o.Names {
					if got != "" {
						t.Errorf("both %s and %s name the rows", got, o.Name)
					}
					got = o.Name
				}
			}
			if got != tc.want {
				t.Errorf("the rows are named by %q, want %q (columns %+v)", got, tc.want, c.Columns)
			}
		})
	}
}
