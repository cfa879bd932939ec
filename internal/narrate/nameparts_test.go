package narrate

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestFirstAndLastNameNameARow: a ranking grouped by a person's key, first
// and last name is named by both names, in the text and on the chart, and
// the last names are no grouping of their own (found from outside: "top 5
// customers by spend" named customers 17, 99 and 235).
func TestFirstAndLastNameNameARow(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{col("id", quarry.TypeInt), col("first_name", quarry.TypeText), col("last_name", quarry.TypeText), col("orders", quarry.TypeInt)},
		Rows: [][]any{{int64(14), "Dee", "Jones", int64(27)}, {int64(166), "Cid", "Jones", int64(25)}, {int64(293), "Gus", nil, int64(23)}}}
	infos := []ColumnInfo{{Name: "id", Role: RoleDimension}, {Name: "first_name", Role: RoleDimension}, {Name: "last_name", Role: RoleDimension}, {Name: "orders", Role: RoleMetric, Format: FormatInteger}}
	a := Compose(AnswerInput{Title: "Orders by customers", Table: tbl, Columns: infos})
	if want := "Orders by customers: Dee Jones leads with 27, then Cid Jones 25 and Gus 23."; a.Headline != want {
		t.Errorf("headline %q, want %q", a.Headline, want)
	}
	if got := strings.Join(a.Chart.Labels, ", "); a.Chart.Kind != ChartBar || got != "Dee Jones, Cid Jones, Gus" {
		t.Errorf("chart %q labelled %q", a.Chart.Kind, got)
	}
	// Two columns of first names are no pair: neither is read so.
	two := &quarry.Table{Columns: []quarry.Column{col("first_name", quarry.TypeText), col("last_name", quarry.TypeText), col("given_name", quarry.TypeText), col("orders", quarry.TypeInt)},
		Rows: [][]any{{"Dee", "Jones", "D", int64(27)}}}
	b := Compose(AnswerInput{Title: "Orders", Table: two, Columns: []ColumnInfo{{Name: "first_name", Role: RoleDimension}, {Name: "last_name", Role: RoleDimension}, {Name: "given_name", Role: RoleDimension}, {Name: "orders", Role: RoleMetric}}})
	if strings.Contains(b.Headline, "Dee Jones") {
		t.Errorf("two first names paired: %q", b.Headline)
	}
}

// TestListNamedByFirstAndLastName: a list of persons named by their key,
// with a first and a last name listed beside it, names each by both
// (found from outside: "starting with id 5, id 8 and id 10").
func TestListNamedByFirstAndLastName(t *testing.T) {
	tbl := &quarry.Table{Columns: []quarry.Column{col("id", quarry.TypeInt), col("first_name", quarry.TypeText), col("last_name", quarry.TypeText)},
		Rows: [][]any{{int64(5), "Zara", "Murphy"}, {int64(8), "Ewan", "Johnson"}, {int64(10), "Harry", "White"}}}
	infos := []ColumnInfo{{Name: "id", Role: RoleColumn, Names: true}, {Name: "first_name", Role: RoleColumn}, {Name: "last_name", Role: RoleColumn}}
	a := Compose(AnswerInput{Title: "Customers", Table: tbl, Columns: infos, TotalRows: 798})
	if want := "starting with Zara Murphy, Ewan Johnson and Harry White"; !strings.Contains(a.Headline, want) {
		t.Errorf("headline %q, want %q", a.Headline, want)
	}
}
