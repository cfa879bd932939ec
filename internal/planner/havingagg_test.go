package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestAggregateCompared: "rooms with an average rating below 4" keeps
// the rooms whose reviews average under 4, each room's measure compared
// (found from outside: refused). A column compared with no aggregate
// word is still a condition on each row.
func TestAggregateCompared(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "rooms", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}, id("capacity")}},
			{Name: "bookings", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("room_id"),
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}, {Name: "price", Type: quarry.TypeFloat}}},
			{Name: "reviews", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("booking_id"), id("rating")}},
		},
		Relationships: []semantic.Relationship{
			{From: "bookings", FromColumn: "room_id", To: "rooms", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "reviews", FromColumn: "booking_id", To: "bookings", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q         string
		want, not []string
	}{
		{"rooms with an average rating below 4", []string{"AVG(reviews.rating)", "GROUP BY rooms.id", "HAVING", "< 4"}, []string{"reviews.rating < 4"}},
		{"which rooms have an average rating under 4", []string{"AVG(reviews.rating)", "GROUP BY rooms.id", "< 4"}, []string{"reviews.rating < 4"}},
		{"rooms with an average price above 200", []string{"AVG(bookings.price)", "GROUP BY rooms.id", "> 200"}, []string{"bookings.price > 200"}},
		{"bookings with a price above 200", []string{"bookings.price > 200"}, []string{"HAVING", "GROUP BY"}},
		// Asked for and compared: shown.
		{"the average rating for each room where the average rating is below 4", []string{"AVG(reviews.rating)", "< 4"}, []string{"reviews.rating < 4"}},
		// No aggregate word: each row's value.
		{"how many reviews with a rating below 3", []string{"reviews.rating < 3"}, []string{"HAVING", "GROUP BY"}},
		{"average rating of rooms with capacity above 4", []string{"AVG(reviews.rating)", "rooms.capacity > 4"}, []string{"GROUP BY"}},
	} {
		pl := p.Plan(tc.q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q %v", tc.q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite")
		if err != nil {
			t.Errorf("%q: %v", tc.q, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(c.SQL, w) {
				t.Errorf("%q: SQL lacks %q:\n%s", tc.q, w, c.SQL)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(c.SQL, w) {
				t.Errorf("%q: SQL has %q:\n%s", tc.q, w, c.SQL)
			}
		}
		// The measure compared is shown only where it is asked for too.
		hidden := slices.ContainsFunc(pl.Query.Hidden, func(h string) bool { return strings.HasPrefix(h, "avg_") })
		if asked := strings.HasPrefix(tc.q, "the average"); strings.Contains(tc.q, "with an average") && !hidden || asked && hidden {
			t.Errorf("%q: hidden %v", tc.q, pl.Query.Hidden)
		}
	}
}
