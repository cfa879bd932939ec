package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestQualifiedLink: a table's one link named for which row it is
// (vehicles.home_branch_id) names the table it points at in those words:
// "vehicles by home branch" (found from outside: "home" not understood).
// A key named only after its table adds nothing.
func TestQualifiedLink(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "branches", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "vehicles", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("home_branch_id"), {Name: "plate", Type: quarry.TypeText}}},
		},
		Relationships: []semantic.Relationship{{From: "vehicles", FromColumn: "home_branch_id", To: "branches", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	pl := p.Plan("how many vehicles by home branch", asOf)
	if pl.Kind != KindMetric || pl.Query == nil || !slices.ContainsFunc(pl.Query.Dimensions, func(d semantic.DimRef) bool { return d.Name == "branches.name" }) {
		t.Fatalf("vehicles by home branch: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if got := p.lex.senses("branch branch"); len(got) > 0 {
		t.Errorf("a phrase of no qualifier: %+v", got)
	}
}
