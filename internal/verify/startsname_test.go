package verify_test

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestGroupNamedByALongerName: "bookings by room kind" is grouped by
// room_kinds, whose name starts with the rooms' own word; the grouping
// is the one asked (found from outside: refused, "the question asks for
// each room"). Grouped by room kind, "bookings by room" is still refused.
func TestGroupNamedByALongerName(t *testing.T) {
	id := semantic.Column{Name: "id", Type: quarry.TypeInt}
	name := semantic.Column{Name: "name", Type: quarry.TypeText}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "room_kinds", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id, name}},
			{Name: "rooms", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id, name, {Name: "kind_id", Type: quarry.TypeInt}}},
			{Name: "bookings", PrimaryKey: "id", Columns: []semantic.Column{id, {Name: "room_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "rooms", FromColumn: "kind_id", To: "room_kinds", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "bookings", FromColumn: "room_id", To: "rooms", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{{Name: "count_bookings", Entity: "bookings", Expr: "COUNT(bookings.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	byKind := &semantic.Query{Metrics: []string{"count_bookings"}, Dimensions: []semantic.DimRef{{Name: "room_kinds.id"}, {Name: "room_kinds.name"}}, Hidden: []string{"room_kinds.id"}}
	failed := func(question string) string {
		for _, c := range verify.Coverage(question, "2026-06-30", m, byKind) {
			if c.Status == verify.Fail {
				return c.Detail
			}
		}
		return ""
	}
	for _, q := range []string{"bookings by room kind", "how many bookings for each room kind"} {
		if d := failed(q); d != "" {
			t.Errorf("%q grouped by room kind: %s", q, d)
		}
	}
	if d := failed("bookings by room"); !strings.Contains(d, "each room") {
		t.Errorf("bookings by room, grouped by room kind: %q; want refused", d)
	}
}
