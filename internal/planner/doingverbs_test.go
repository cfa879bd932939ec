package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDoingVerbs: a verb of doing that says nothing of which rows
// ("organised", "led", "hosted", and "gave" as "give") is read as "did"
// is (found from outside: "which coordinator organised the most events"
// refused as unknown words); "ran", which may say a span, is not:
// "campaigns that ran in 2025" are not those that began in 2025, so it
// stays unknown and the question is refused, not answered by the start.
// Between two tables ("which coordinator ran the most events") it is a
// verb of a link, read as any generic one.
func TestDoingVerbs(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	date := func(n, role string) semantic.Column {
		return semantic.Column{Name: n, Type: quarry.TypeDate, TimeRole: role}
	}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "campaigns", PrimaryKey: "id", Label: "name", TimeColumn: "starts_on", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText},
				date("starts_on", semantic.TimeRoleStart), date("ends_on", semantic.TimeRoleEnd)}},
			{Name: "events", PrimaryKey: "id", TimeColumn: "held_on", Columns: []semantic.Column{id("id"), id("coordinator_id"), id("backup_coordinator_id"), id("campaign_id"),
				date("held_on", semantic.TimeRoleEvent)}},
		},
		Relationships: []semantic.Relationship{
			{Name: "coordinator", From: "events", FromColumn: "coordinator_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "backup_coordinator", From: "events", FromColumn: "backup_coordinator_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "events", FromColumn: "campaign_id", To: "campaigns", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	did := p.Plan("which coordinator did the most events", asOf)
	if did.Kind != KindMetric || did.Query == nil {
		t.Fatalf("did: %s %q; want a ranking", did.Kind, did.Reason)
	}
	for _, q := range []string{"which coordinator organised the most events", "which coordinator led the most events", "which coordinator hosted the most events", "which coordinator organized the most events"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || !slices.EqualFunc(pl.Query.Dimensions, did.Query.Dimensions, func(a, b semantic.DimRef) bool { return a.Name == b.Name }) {
			t.Errorf("%q: %s %q; want read as %q is", q, pl.Kind, pl.Reason, "did")
		}
	}
	if pl := p.Plan("which coordinator ran the most events", asOf); pl.Kind != KindMetric || !slices.EqualFunc(pl.Query.Dimensions, did.Query.Dimensions, func(a, b semantic.DimRef) bool { return a.Name == b.Name }) {
		t.Errorf("ran the most events: %s %q; want read as %q is", pl.Kind, pl.Reason, "did")
	}
	if pl := p.Plan("campaigns that ran in 2025", asOf); pl.Query != nil && pl.Kind != KindClarify {
		t.Errorf("campaigns that ran in 2025: %s %+v; want refused", pl.Kind, pl.Query)
	}
	if got := p.stop["gave"]; !got {
		t.Error(`"gave" is no stopword, though "give" is`)
	}
}
