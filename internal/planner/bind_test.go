package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestBindNamedColumn: a value is held to the column the question names
// for it, literally, even when it is a known value of another column —
// "products whose name is Books" is no product, not the books (an
// outside test found 13 wrong answers of this kind) — while a column not
// bound by "is" or "whose" leaves the value to its own column. Where the
// named column lists its values without this one ("customers whose city
// is Germany"), the question is refused instead, naming the value's
// column (TestHeldValueOfAnotherColumn).
func TestBindNamedColumn(t *testing.T) {
	p := New(testModel(), nil)
	eq := func(field string, v any) []semantic.Filter {
		return []semantic.Filter{{Field: field, Op: semantic.OpEq, Values: []any{v}}}
	}
	for _, tc := range []struct {
		q    string
		want []semantic.Filter
	}{
		{"list products whose name is Books", eq("products.name", "Books")},
		{"products with name Electronics", eq("products.name", "Electronics")},
		{"customers whose country is Germany", eq("country", "Germany")},
		{"orders whose channel is web", eq("channel", "web")},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("%s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			if diff := cmp.Diff(tc.want, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
		})
	}
	// A number or a date column does not take a text value literally.
	if pl := p.Plan("products whose price is Books", asOf); pl.Kind == KindMetric || pl.Kind == KindRows {
		t.Errorf("answered %+v", pl.Query.Filters)
	}
}

// TestBindNamedColumnOfRelated: a value two tables hold, after the column
// of one named for it, is that column's (found from outside: "vets who
// never had a visit with reason Surgery" read as surgeons with no visits).
func TestBindNamedColumnOfRelated(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "vets", Table: "vets", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "specialty", Type: quarry.TypeText, Values: []string{"Surgery", "Dentistry"}}}},
			{Name: "visits", Table: "visits", PrimaryKey: "id", TimeColumn: "visit_date", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "vet_id", Type: quarry.TypeInt},
				{Name: "visit_date", Type: quarry.TypeDate}, {Name: "reason", Type: quarry.TypeText, Values: []string{"Surgery", "Checkup"}}}},
		},
		Relationships: []semantic.Relationship{{From: "visits", FromColumn: "vet_id", To: "vets", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	reason := []semantic.Filter{{Field: "visits.reason", Op: semantic.OpEq, Values: []any{"Surgery"}}}
	for q, want := range map[string][]semantic.Filter{
		"which vets have never had a visit with reason Surgery": {{Field: "visits", Op: semantic.OpNone, Where: reason}},
		"vets with a visit with reason Surgery":                 {{Field: "visits", Op: semantic.OpSome, Where: reason}},
		"vets with specialty Surgery":                           {{Field: "vets.specialty", Op: semantic.OpEq, Values: []any{"Surgery"}}},
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		if diff := cmp.Diff(want, pl.Query.Filters); diff != "" {
			t.Errorf("%q filters (-want +got):\n%s", q, diff)
		}
	}
}
