package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTotalOfATotalColumn: "total of orders", where the orders' amount is
// a column named total, read "total of total orders" again and again
// until the stack overflowed (found from outside). It is refused, with a
// way to ask that is not the question itself.
func TestTotalOfATotalColumn(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "ordered_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}, {Name: "total", Type: quarry.TypeFloat, Unit: "USD"},
				{Name: "status", Type: quarry.TypeText, Values: []string{"paid", "refunded"}}}},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"total of orders", "total of orders in 2025", "total of refunded orders this year", "sum of orders total in 2025", "orders total total"} {
		pl := p.Plan(q, asOf)
		if pl.Kind == KindUnanswered && strings.Contains(pl.Reason, "“total of orders”") {
			t.Errorf("%q: %q; suggests the question itself", q, pl.Reason)
		}
	}
}
