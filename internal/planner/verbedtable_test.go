package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestVerbedTable: a table's name said as a verb right after the rows
// that did it ("customers booked last month") asks for those rows that
// have such a row in the period, as "customers who had a booking last
// month" does (found from outside: refused as not related). So does
// "made a booking".
func TestVerbedTable(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "bookings", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("customer_id"),
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}, {Name: "party_size", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "bookings", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, tc := range []struct {
		q    string
		kind Kind
		from string // the period's start on the bookings, "" for none
	}{
		{"how many customers booked last month", KindMetric, "2026-05-01"},
		{"how many customers booked in 2025", KindMetric, "2025-01-01"},
		{"customers who booked in 2025", KindRows, "2025-01-01"},
		{"how many customers made a booking last month", KindMetric, "2026-05-01"},
		{"how many customers have booked", KindMetric, ""},
		{"how many customers had a booking last month", KindMetric, "2026-05-01"},
	} {
		pl := p.Plan(tc.q, asOf)
		if pl.Kind != tc.kind || pl.Query == nil {
			t.Errorf("%q: %s %q %v; want %s", tc.q, pl.Kind, pl.Reason, pl.Options, tc.kind)
			continue
		}
		var some *semantic.Filter
		for i, f := range pl.Query.Filters {
			if f.Op == semantic.OpSome && f.Field == "bookings" {
				some = &pl.Query.Filters[i]
			}
		}
		if some == nil {
			t.Errorf("%q: filters %+v; want the customers with bookings", tc.q, pl.Query.Filters)
			continue
		}
		from := ""
		for _, w := range some.Where {
			if w.Field == "bookings.scheduled_for" && w.Op == semantic.OpGe {
				from = w.Values[0].(string)
			}
		}
		if tc.from != "" && from != tc.from {
			t.Errorf("%q: bookings from %q; want %q (%+v)", tc.q, from, tc.from, some.Where)
		}
		if pl.Query.TimeRange != nil {
			t.Errorf("%q: the period is on the customers: %+v", tc.q, pl.Query.TimeRange)
		}
	}
	// The table's own rows, said so, are not "customers with bookings".
	if pl := p.Plan("how many bookings were booked last month", asOf); pl.Query != nil {
		for _, f := range pl.Query.Filters {
			if f.Op == semantic.OpSome {
				t.Errorf("bookings booked: %+v", pl.Query.Filters)
			}
		}
	}
}
