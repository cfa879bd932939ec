package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMadeAsEntered: a verb of making that no column or value is named
// for is the making of the rows, by the date each was entered, where
// their own date is the event each is made for (found from outside: "how
// many appointments were booked last month" refused, where "created"
// was answered). "Booked for next month" names the event, and is not
// read so.
func TestMadeAsEntered(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "appointments", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"scheduled", "completed", "cancelled"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart},
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"how many appointments were booked last month", "appointments reserved in 2025 by month"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field != "appointments.created_at" {
			t.Errorf("%q: %s %q %+v; want the period on appointments.created_at", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("how many appointments were booked for next month", asOf); pl.Query != nil && pl.Query.TimeRange != nil && pl.Query.TimeRange.Field == "appointments.created_at" {
		t.Errorf("booked for next month: read as made next month")
	}
}
