package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestThingsInUse: a vehicle, with a retirement date of its own, is a
// thing in use, no record its rentals are parts of. Its deletion leaves
// its rentals counted, and its acquisition is no event a rental is for
// (found from outside on a car-rental fleet: payments and pickups of
// deleted vehicles' rentals left out, and "how many no-shows last year"
// 0 for 36 at 1.00, dated by the car's purchase).
func TestThingsInUse(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "vehicles", PrimaryKey: "id", TimeColumn: "acquired_on", Columns: []semantic.Column{id("id"),
				{Name: "acquired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
				{Name: "retired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd},
				{Name: "is_deleted", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
			{Name: "rentals", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("vehicle_id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"completed", "no_show"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart},
				{Name: "km_driven", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "rentals", FromColumn: "vehicle_id", To: "vehicles", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"how many rentals in 2025", "total km driven of rentals last year", "how many no-shows last year"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		checkFilters(t, q, pl, nil, []string{"vehicles.is_deleted"})
		if tr := pl.Query.TimeRange; tr == nil || strings.HasPrefix(tr.Field, "vehicles.") {
			t.Errorf("%q: period %+v; want the rentals' own date", q, tr)
		}
	}
	if got := m.AttendedOn("rentals", []semantic.Filter{{Field: "rentals.status", Op: semantic.OpEq, Values: []any{"no_show"}}}); got != "" {
		t.Errorf("no-shows dated by %s", got)
	}
}
