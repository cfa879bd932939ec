package planner

import (
	"strings"
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
			{Name: "refunds", PrimaryKey: "id", TimeColumn: "refunded_on", Columns: []semantic.Column{id("id"), id("boat_id"),
				{Name: "refunded_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "refund_amt", Type: quarry.TypeFloat}}},
			{Name: "cancellations", PrimaryKey: "id", TimeColumn: "cancelled_on", Columns: []semantic.Column{id("id"), id("boat_id"),
				{Name: "cancelled_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "fee_refund_amt", Type: quarry.TypeFloat}}},
		},
		Relationships: []semantic.Relationship{
			{From: "maintenance_jobs", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "refunds", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "cancellations", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string][]string{
		"which boat had the most maintenance cost":  {"SUM(maintenance_jobs.cost_cents)", "DESC", "LIMIT 1"},
		"which boat had the least maintenance cost": {"SUM(maintenance_jobs.cost_cents)", "ORDER BY sum_maintenance_jobs_cost NULLS LAST", "LIMIT 1"},
		"which boat had the most maintenance jobs":  {"COUNT(maintenance_jobs.id)", "LIMIT 1"},
	} {
		if pl := p.Plan(q, asOf); pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		sqlHolds(t, p, m, q, want...)
	}
	// How many refunds, or the largest refund_amt? Never their total
	// (found by the round-four hotel test).
	for _, q := range []string{"which boat had the most refunds", "which month had the most refunds"} {
		if pl := p.Plan(q, asOf); pl.Kind == KindMetric && strings.Contains(pl.Read, "highest total") {
			t.Errorf("%q read as their total: %q", q, pl.Read)
		}
	}
}
