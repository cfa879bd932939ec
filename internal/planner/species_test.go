package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestSpeciesKinds: a table of kinds named "species" is one ("how many
// dogs": the pets whose species is Dog), and "species" is its own
// singular (found from outside: refused with a hint to count the one Dog
// row of species, and read as "specy").
func TestSpeciesKinds(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "species", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"Dog", "Cat"}}}},
			{Name: "pets", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), id("species_id"), {Name: "name", Type: quarry.TypeText}}},
		},
		Relationships: []semantic.Relationship{{From: "pets", FromColumn: "species_id", To: "species", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	pl := New(m, nil).Plan("how many dogs do we have", asOf)
	if pl.Kind != KindMetric || !strings.HasPrefix(pl.Model(m).Metric(pl.Query.Metrics[0]).Expr, "COUNT(pets.") ||
		!slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "species.name" && slices.Equal(f.Values, []any{"Dog"}) }) {
		t.Fatalf("%s %q %+v; want the pets whose species is Dog counted", pl.Kind, pl.Reason, pl.Query)
	}
	if said := strings.Join(pl.Understood, "; "); strings.Contains(said, "specy") {
		t.Errorf("reading says %q", said)
	}
	if got := singular("species"); got != "species" {
		t.Errorf("singular(species) = %q", got)
	}
}
