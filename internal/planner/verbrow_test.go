package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestVerbRowValue: a value of the table whose date's verb the question
// says ("guests who rented a snowboard this year") holds on the same row
// as the verb's period: one rental, a snowboard, rented this year (found
// from outside: refused, and "rented skis" not understood).
func TestVerbRowValue(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "guests", PrimaryKey: "id", Label: "full_name", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}},
			{Name: "rentals", PrimaryKey: "id", TimeColumn: "rented_at", Columns: []semantic.Column{id("id"), id("guest_id"),
				{Name: "item_kind", Type: quarry.TypeText, Values: []string{"skis", "snowboard", "boots"}},
				{Name: "rented_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "returned_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "rentals", FromColumn: "guest_id", To: "guests", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, period := range map[string]bool{
		"how many guests rented a snowboard this year": true,
		"guests who rented skis last month":            true,
		"how many guests rented a snowboard":           false,
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		var on []semantic.Filter
		for _, f := range pl.Query.Filters {
			if f.Op == semantic.OpSome && f.Field == "rentals" {
				on = append(on, f)
			}
		}
		if len(on) != 1 || !slices.ContainsFunc(on[0].Where, func(w semantic.Filter) bool { return w.Field == "rentals.item_kind" }) ||
			slices.ContainsFunc(on[0].Where, func(w semantic.Filter) bool { return w.Field == "rentals.rented_at" && w.Op == semantic.OpGe }) != period || pl.Query.TimeRange != nil {
			t.Errorf("%q: %+v, %+v; want one rental with the kind and the period", q, pl.Query.Filters, pl.Query.TimeRange)
		}
		for _, c := range verify.Coverage(q, "2026-06-30", pl.Model(m), pl.Query) {
			if c.Status == verify.Fail {
				t.Errorf("%q: %s failed: %s", q, c.Name, c.Detail)
			}
		}
	}
}
