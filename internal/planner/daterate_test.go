package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDateRate: "cancellation rate of charters" names cancelled_at before
// "rate": the share of charters whose status is 'cancelled', never a list
// of each charter's cancelled_at beside its boat's daily rate (found from
// outside, at 1.00).
func TestDateRate(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "boats", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}, {Name: "daily_rate_cents", Type: quarry.TypeInt, Unit: "cents"}}},
			{Name: "charters", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("boat_id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"confirmed", "completed", "cancelled"}},
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "cancelled_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "charters", FromColumn: "boat_id", To: "boats", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	pl := New(m, nil).Plan("cancellation rate of charters", asOf)
	if pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 {
		t.Fatalf("%s %q %+v; want the share of cancelled charters", pl.Kind, pl.Reason, pl.Query)
	}
	if mt := pl.Model(m).Metric(pl.Query.Metrics[0]); mt == nil || !strings.Contains(mt.Expr, "charters.status = 'cancelled'") {
		t.Errorf("%+v; want the share of charters whose status is cancelled", mt)
	}
}
