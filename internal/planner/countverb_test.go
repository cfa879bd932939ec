package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestVerbBeforeCount: a state said as the verb right before a count
// counts only the rows in that state ("couriers who delivered more than
// 300 orders": found from outside, every order counted toward the 300
// beside one delivered); said elsewhere, it stays a condition of its own.
func TestVerbBeforeCount(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "couriers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "placed_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "courier_id", Type: quarry.TypeInt}, {Name: "placed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"delivered", "cancelled", "refunded"}}}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "courier_id", To: "couriers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	pl := p.Plan("couriers who delivered more than 300 orders", asOf)
	if pl.Query == nil {
		t.Fatalf("%s %s", pl.Kind, pl.Reason)
	}
	if len(pl.Query.Filters) != 1 || !pl.Query.Filters[0].Count || len(pl.Query.Filters[0].Where) != 1 || pl.Query.Filters[0].Where[0].Field != "orders.status" {
		t.Errorf("filters %+v; want one count of the delivered orders", pl.Query.Filters)
	}
	sqlHolds(t, p, m, "couriers who delivered more than 300 orders", "orders.status = 'delivered'", "HAVING COUNT(*) > 300")
	if pl := p.Plan("couriers with a cancelled order and more than 300 orders", asOf); pl.Query != nil {
		some := false
		for _, f := range pl.Query.Filters {
			some = some || f.Op == semantic.OpSome
		}
		if !some {
			t.Errorf("a state said apart from the count was folded into it: %+v", pl.Query.Filters)
		}
	}
}
