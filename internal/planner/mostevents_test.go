package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMostEvents: "the most cancellations" ranks by how many rows have
// the date the noun names (bookings.cancelled_at), never by the latest
// such date (found from outside: read as MAX(cancelled_at), and
// refused).
func TestMostEvents(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "rooms", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "bookings", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("room_id"),
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "cancelled_at", Type: quarry.TypeTimestamp}}},
		},
		Relationships: []semantic.Relationship{
			{From: "bookings", FromColumn: "room_id", To: "rooms", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct{ q, dir string }{
		{"which room had the most cancellations", "desc"},
		{"which room had the most cancellations in 2025", "desc"},
	} {
		pl := p.Plan(tc.q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil {
			t.Errorf("%q: %s %q", tc.q, pl.Kind, pl.Reason)
			continue
		}
		c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite")
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		for _, want := range []string{"COUNT(bookings.id)", "bookings.cancelled_at IS NOT NULL", "GROUP BY rooms.id", "DESC"} {
			if !strings.Contains(c.SQL, want) {
				t.Errorf("%q: SQL lacks %q:\n%s", tc.q, want, c.SQL)
			}
		}
		if strings.Contains(c.SQL, "MAX(") {
			t.Errorf("%q: the latest date, not how many:\n%s", tc.q, c.SQL)
		}
	}
	// The latest date, asked as one, stays a date.
	if pl := p.Plan("when was the latest cancellation", asOf); pl.Query != nil {
		if c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite"); err == nil && strings.Contains(c.SQL, "COUNT(") {
			t.Errorf("latest cancellation counted:\n%s", c.SQL)
		}
	}
}
