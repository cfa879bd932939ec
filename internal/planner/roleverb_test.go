package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestVerbOfTheDoer: "which inspector inspected the most jobs", where
// jobs refer to staff as their inspector (whose link lists the verb, as
// learn proposes for a link named for its doer) and as their mechanic,
// reads the verb with the role the question names, not with the table
// behind it (found from outside: asked between the inspector, the
// mechanic and a booking's staff). A role whose link does not list the
// verb, and a verb no link lists, stay unknown.
func TestVerbOfTheDoer(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText},
				{Name: "role", Type: quarry.TypeText, Values: []string{"inspector", "mechanic"}}}},
			{Name: "jobs", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("inspector_id"), id("mechanic_id"), id("boat_id"),
				{Name: "scheduled_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "boats", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), id("skipper_id"), {Name: "name", Type: quarry.TypeText}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "inspector", From: "jobs", FromColumn: "inspector_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne, Verbs: []string{"inspect"}},
			{Name: "mechanic", From: "jobs", FromColumn: "mechanic_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "jobs", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "skipper", From: "boats", FromColumn: "skipper_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"which inspector inspected the most jobs", "how many jobs did each inspector inspect",
		// A period after the verb leaves it the clause's end (found from
		// outside: "how many bookings did each host handle last quarter"
		// refused as an unknown word).
		"how many jobs did each inspector inspect last month", "how many jobs did each inspector inspect in the last quarter"} {
		pl := p.Plan(q, asOf)
		want := "inspector_id"
		if pl.Kind != KindMetric || !slices.ContainsFunc(pl.Understood, func(u string) bool {
			return strings.HasPrefix(u, `read "inspect`) && (strings.HasSuffix(u, " as the link from jobs to inspector") || strings.HasSuffix(u, " as the link from inspector to jobs"))
		}) {
			t.Errorf("%q: %s %q %q; want jobs counted through %s", q, pl.Kind, pl.Reason, pl.Understood, want)
		}
	}
	// Two direct links and the verb of neither: asked between those two,
	// not the ways round through other tables (found from outside: "how
	// many bookings did Tom Becker run" asked among four, one through a
	// room's maintenance log).
	pl := p.Plan("which staff ran the most jobs", asOf)
	if pl.Kind != KindClarify || len(pl.Options) != 2 {
		t.Errorf("which staff ran the most jobs: %s %q %q; want asked between the two links", pl.Kind, pl.Reason, pl.Options)
	}
	// The verb of one link and the role of another: not for quarry to
	// pick.
	if pl := p.Plan("how many jobs did each mechanic inspect", asOf); pl.Kind == KindMetric {
		t.Errorf("each mechanic inspect: answered %q; want asked or refused", pl.Understood)
	}
	if pl := p.Plan("which staff member fixed the most jobs", asOf); pl.Kind == KindMetric {
		t.Errorf("fixed: answered %q; no link is named for it", pl.Understood)
	}
}
