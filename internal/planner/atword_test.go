package planner

import (
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestNameThenAt: "bookings at French hotels" lists the bookings; "bookings
// at" is not another form of the date booked_at (found from outside: the
// one French hotel listed, for 213 bookings, "bookings at" read as
// "booked at").
func TestNameThenAt(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "hotels", Table: "hotels", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "country", Type: quarry.TypeText, Values: []string{"FR", "GB"}}}},
			{Name: "bookings", Table: "bookings", PrimaryKey: "id", TimeColumn: "booked_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "hotel_id", Type: quarry.TypeInt},
				{Name: "booked_at", Type: quarry.TypeTimestamp}}},
		},
		Relationships: []semantic.Relationship{{From: "bookings", FromColumn: "hotel_id", To: "hotels", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"bookings at French hotels last year", "bookings at hotels in France", "list bookings at GB hotels"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindRows || pl.Query.Rows == nil || pl.Query.Rows.Entity != "bookings" {
			t.Errorf("%q: %s %q %+v; want a list of bookings", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("how many bookings at French hotels last year", asOf); pl.Kind != KindMetric || len(pl.Query.Filters) != 1 || pl.Query.TimeRange == nil {
		t.Errorf("count: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestHeldOrAllListed: a list of rows that a date lets go ("list staff at
// Rive Gauche Paris", staff gone by terminated_on) asks, as a count does,
// every one on record or those here now (found from outside: two former
// staff listed among 15, at 1.00); not a list that shows that date, nor
// one of rows named.
func TestHeldOrAllListed(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "hotels", Table: "hotels", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "name", Type: quarry.TypeText, Values: []string{"Rive Gauche Paris", "Thames Court London"}}}},
			{Name: "staff", Table: "staff", PrimaryKey: "id", Label: "full_name", TimeColumn: "hired_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "hotel_id", Type: quarry.TypeInt},
				{Name: "full_name", Type: quarry.TypeText, Values: []string{"Riley Page", "Alex Cole"}},
				{Name: "hired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "terminated_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "staff", FromColumn: "hotel_id", To: "hotels", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	if pl := p.Plan("list staff at Rive Gauche Paris", asOf); pl.Kind != KindClarify || len(pl.Options) != 2 {
		t.Fatalf("list staff: %s %q %v; want all or current asked", pl.Kind, pl.Reason, pl.Options)
	}
	pl := p.Plan("list staff at Rive Gauche Paris currently", asOf)
	if pl.Kind != KindRows || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "staff.terminated_on" && f.Op == semantic.OpNull }) {
		t.Errorf("currently: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	for _, q := range []string{"list staff at Rive Gauche Paris in all", "list staff at Rive Gauche Paris with their terminated on", "staff named Riley Page"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindRows {
			t.Errorf("%q: %s %q %v; want a list", q, pl.Kind, pl.Reason, pl.Options)
		}
	}
}
