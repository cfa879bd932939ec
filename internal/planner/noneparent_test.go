package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestNoneOfParentInPeriod: rows with no row of a table they each point
// at ("orders without a reservation", orders.reservation_id), in a
// period, are the period's rows with none: the period is on their own
// date, never inside the NOT EXISTS (found from outside: "how many orders
// without a reservation last month" counted every order ever less those
// of May's reservations, 21,733 for 366, at 1.00). Rows with no row of a
// table that points at them keep the period on the missing rows
// ("customers without orders last month").
func TestNoneOfParentInPeriod(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "reservations", PrimaryKey: "id", TimeColumn: "reserved_for", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "guest_id", Type: quarry.TypeInt}, {Name: "reserved_for", Type: quarry.TypeTimestamp},
			}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "reservation_id", Type: quarry.TypeInt}, {Name: "opened_at", Type: quarry.TypeTimestamp},
			}},
			{Name: "guests", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
			}},
		},
		Relationships: []semantic.Relationship{
			{Name: "reservation", From: "orders", FromColumn: "reservation_id", To: "reservations", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "guest", From: "reservations", FromColumn: "guest_id", To: "guests", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q       string
		outside string // the field the period is on, outside NOT EXISTS
		inside  string // the field the period is on, inside it
	}{
		{"how many orders without a reservation last month", "orders.opened_at", ""},
		{"how many orders last month had no reservation", "orders.opened_at", ""},
		{"orders with no reservation in May", "orders.opened_at", ""},
		{"how many guests without reservations last month", "", "reservations.reserved_for"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Query == nil {
				t.Fatalf("%s: %s %s %v", pl.Kind, pl.Reason, pl.Question, pl.Options)
			}
			outside, inside := "", ""
			if tr := pl.Query.TimeRange; tr != nil {
				outside = tr.Field
				if outside == "" {
					outside = "orders.opened_at"
				}
			}
			for _, f := range pl.Query.Filters {
				if f.Op == semantic.OpNone {
					for _, w := range f.Where {
						inside = w.Field
					}
				}
			}
			if outside != tc.outside || inside != tc.inside {
				t.Errorf("period on %q outside and %q inside NOT EXISTS; want %q and %q", outside, inside, tc.outside, tc.inside)
			}
		})
	}
}
