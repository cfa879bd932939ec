package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestNoAmountIsZero: "no tip" of an amount that adds up is a tip of 0
// or none (found from outside: tip_cents is never empty, and "how many
// delivered orders had no tip" counted 0 of 15,630, at 1.00); "no
// rating" of a score is still no value.
func TestNoAmountIsZero(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "orders", PrimaryKey: "id", TimeColumn: "placed_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "placed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "tip_cents", Type: quarry.TypeInt, Unit: "cents", Synonyms: []string{"tip"}}, {Name: "rating", Type: quarry.TypeInt}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	sqlHolds(t, p, m, "how many orders had no tip", "orders.tip_cents <= 0 OR orders.tip_cents IS NULL")
	sqlHolds(t, p, m, "how many orders had no rating", "orders.rating IS NULL")
}
