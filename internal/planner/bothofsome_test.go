package planner

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestBothOfRowsHad: "sellers who have listings in both books and toys"
// are those with a listing of each (found from outside: refused, as one
// listing cannot be both); with another condition on the listings,
// which listing it is of is not said, so it is refused; "books and toys"
// without "both" is still asked back.
func TestBothOfRowsHad(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "sellers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "listings", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("seller_id"), {Name: "price", Type: quarry.TypeFloat},
				{Name: "category", Type: quarry.TypeText, Values: []string{"books", "toys", "garden"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "listings", FromColumn: "seller_id", To: "sellers", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	each := func(v string) semantic.Filter {
		return semantic.Filter{Field: "listings", Op: semantic.OpSome, Where: []semantic.Filter{{Field: "listings.category", Op: semantic.OpEq, Values: []any{v}}}}
	}
	for _, q := range []string{"how many sellers have listings in both books and toys", "sellers with listings in both books and toys"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Fatalf("%q: %s %q", q, pl.Kind, pl.Reason)
		}
		if d := cmp.Diff([]semantic.Filter{each("books"), each("toys")}, pl.Query.Filters); d != "" {
			t.Errorf("%q: filters (-want +got):\n%s", q, d)
		}
		if _, err := semantic.Compile(pl.Model(m), *pl.Query, "sqlite"); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
	for _, q := range []string{"how many sellers have listings in books and toys", "how many sellers have listings in both books and toys priced over 10"} {
		if pl := p.Plan(q, asOf); pl.Kind == KindMetric || pl.Kind == KindRows {
			t.Errorf("%q: %s %s; want it refused or asked back", q, pl.Kind, fmt.Sprint(pl.Query.Filters))
		}
	}
}
