package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestBesideField: of a value two columns hold, the one that holds the
// value said beside it with "and" or "or": "agents who have tickets in
// both hardware and network" are those with tickets of two categories,
// not agents of the team Network (found from outside: 4 agents for 13, at
// 1.00); said alone of the agents ("in the Network team"), it is their
// team.
func TestBesideField(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "agents", PrimaryKey: "id", TimeColumn: "hired_on", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText},
				{Name: "team", Type: quarry.TypeText, Values: []string{"Apps", "Desktop", "Network"}}, {Name: "hired_on", Type: quarry.TypeDate}}},
			{Name: "tickets", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{id("id"), id("agent_id"),
				{Name: "category", Type: quarry.TypeText, Values: []string{"access", "hardware", "network", "software"}},
				{Name: "status", Type: quarry.TypeText, Values: []string{"closed", "open", "resolved"}},
				{Name: "opened_at", Type: quarry.TypeDate}, {Name: "resolved_at", Type: quarry.TypeDate}}},
		},
		Relationships: []semantic.Relationship{{Name: "agent", From: "tickets", FromColumn: "agent_id", To: "agents", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	// Answered (as on a learned helpdesk, with the value index) or
	// refused, never read as the agents' team.
	pl := p.Plan("how many agents have tickets in both hardware and network", asOf)
	if pl.Query != nil {
		var cats []any
		for _, f := range pl.Query.Filters {
			if f.Field == "agents.team" {
				t.Errorf("%+v: read as the agents' team", pl.Query.Filters)
			}
			for _, w := range f.Where {
				if w.Field == "tickets.category" {
					cats = append(cats, w.Values...)
				}
			}
		}
		if len(cats) != 2 {
			t.Errorf("%+v: categories %v; want hardware and network", pl.Query.Filters, cats)
		}
	}
	if pl := p.Plan("how many agents in the Network team", asOf); pl.Query == nil || len(pl.Query.Filters) == 0 || pl.Query.Filters[0].Field != "agents.team" {
		t.Errorf("Network team: %s %q %+v; want agents.team", pl.Kind, pl.Reason, pl.Query)
	}
}
