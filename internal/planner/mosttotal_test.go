package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMostAmount: "which boat had the most maintenance cost" ranks the
// boats by their maintenance cost added up; "most" was read as the
// largest single cost, and the boats then related to nothing (found from
// outside, on a yacht-charter company: refused). "The most maintenance
// jobs" still counts them.
func TestMostAmount(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "boats", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "maintenance_jobs", PrimaryKey: "id", TimeColumn: "done_on", Columns: []semantic.Column{id("id"), id("boat_id"),
				{Name: "done_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "cost_cents", Type: quarry.TypeInt, Unit: "cents"}}},
		},
		Relationships: []semantic.Relationship{
			{From: "maintenance_jobs", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string][]string{
		"which boat had the most maintenance cost":  {"SUM(maintenance_jobs.cost_cents)", "DESC", "LIMIT 1"},
		"which boat had the least maintenance cost": {"SUM(maintenance_jobs.cost_cents)", "ORDER BY sum_maintenance_jobs_cost_cents NULLS LAST", "LIMIT 1"},
		"which boat had the most maintenance jobs":  {"COUNT(maintenance_jobs.id)", "LIMIT 1"},
	} {
		if pl := p.Plan(q, asOf); pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		sqlHolds(t, p, m, q, want...)
	}
}
