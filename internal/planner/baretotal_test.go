package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTotalOfNothingNamed: "total received this year by payment method"
// adds up the payments' amount by method, not their number (found from
// outside: the count of payments by method, at 0.85); "total by room",
// rooms having no money, is refused; "how many payments by method" still
// counts.
func TestTotalOfNothingNamed(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{id("id"),
				{Name: "method", Type: quarry.TypeText, Values: []string{"card", "cash"}}, {Name: "amount_cents", Type: quarry.TypeInt},
				{Name: "paid_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "rooms", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText},
				{Name: "difficulty", Type: quarry.TypeText, Values: []string{"easy", "hard"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	sqlHolds(t, p, m, "total received this year by payment method", "SUM(payments.amount_cents)", "GROUP BY payments.method")
	sqlHolds(t, p, m, "total this year by method", "SUM(payments.amount_cents)", "GROUP BY payments.method")
	sqlHolds(t, p, m, "how many payments by method", "COUNT(payments.id)", "GROUP BY payments.method")
	if pl := p.Plan("total by difficulty", asOf); pl.Kind == KindMetric {
		t.Errorf("total by difficulty: answered %q; rooms hold no amount", pl.Understood)
	}
}
