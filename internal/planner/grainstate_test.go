package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestGrainOnState: "cancelled charters by month" is cut by the month
// each was cancelled (cancelled_at), as "cancelled charters last month"
// is; by the month each was scheduled, the check refused it (found from
// outside, on a yacht-charter company). A period said with it moves too;
// charters by month stay on their own date.
func TestGrainOnState(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "charters", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "scheduled_for", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "ends_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd},
				{Name: "completed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd},
				{Name: "cancelled_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd},
				{Name: "status", Type: quarry.TypeText, Values: []string{"pending", "confirmed", "completed", "cancelled"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string][]string{
		"cancelled charters by month":               {"charters.cancelled_at", "GROUP BY"},
		"completed charters by month this year":     {"charters.completed_at", "charters.completed_at >= '2026-01-01'"},
		"how many charters were cancelled by month": {"charters.cancelled_at", "GROUP BY"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		if len(pl.Query.Dimensions) != 1 || pl.Query.Dimensions[0].Name != want[0] {
			t.Errorf("%q: by %+v; want by month of %s", q, pl.Query.Dimensions, want[0])
		}
		sqlHolds(t, p, m, q, want...)
	}
	if pl := p.Plan("charters by month", asOf); pl.Kind != KindMetric || len(pl.Query.Dimensions) != 1 || pl.Query.Dimensions[0].Name != "month" {
		t.Errorf("charters by month: %s %+v; want by their own month", pl.Kind, pl.Query)
	}
}
