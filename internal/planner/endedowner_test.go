package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestEndedWithTheirOwner: rows asked for as ended by their own end
// date keep those of a deleted owner, which ended with it (found from
// outside: "how many rooms are retired" gave 1 for 3 at 1.00, the two
// of a closed location left out). Those not ended, and the rows counted
// whatever their end, still leave a deleted owner's out; dated events
// grouped by those rows do not.
func TestEndedWithTheirOwner(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "locations", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText},
				{Name: "is_deleted", Type: quarry.TypeInt, Values: []string{"0", "1"}}}},
			{Name: "rooms", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("location_id"), {Name: "name", Type: quarry.TypeText},
				{Name: "capacity", Type: quarry.TypeInt}, {Name: "retired_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
			{Name: "bookings", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("room_id"),
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{From: "rooms", FromColumn: "location_id", To: "locations", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "room_id", To: "rooms", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q         string
		want, not []string
	}{
		{"how many rooms are retired", []string{"rooms.retired_at is_not_null"}, []string{"locations.is_deleted"}},
		// Read as a count of the rooms' retired_at: those with one.
		{"how many retired rooms", nil, []string{"locations.is_deleted"}},
		{"how many rooms are not retired", []string{"rooms.retired_at is_null", "locations.is_deleted != 1"}, nil},
		{"how many rooms with capacity above 4 currently", []string{"rooms.retired_at is_null", "locations.is_deleted != 1"}, nil},
		{"how many rooms in all", []string{"locations.is_deleted != 1"}, nil},
		// Bookings grouped by room took place though the room's location
		// closed since, as they did grouped by location (found from
		// outside: "bookings by room" left out a closed location's
		// bookings that "bookings by location" kept).
		{"bookings by room", nil, []string{"locations.is_deleted"}},
		{"bookings by location", nil, []string{"locations.is_deleted"}},
	} {
		checkFilters(t, tc.q, p.Plan(tc.q, asOf), tc.want, tc.not)
	}
}
