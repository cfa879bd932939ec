package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMoneyRowsCounted: "expenses by category this year", with no word of
// counting, asks whether the number of expenses or their total is meant
// (found from outside: the number at 0.85, where the tester meant the
// money); "how many expenses …", "total expenses …" and "number of
// expenses …" say which.
func TestMoneyRowsCounted(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "expense_categories", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "expenses", PrimaryKey: "id", TimeColumn: "incurred_on", Columns: []semantic.Column{id("id"), id("category_id"), id("amount_cents"),
				{Name: "incurred_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "expenses", FromColumn: "category_id", To: "expense_categories", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	if pl := p.Plan("expenses by category this year", asOf); pl.Kind != KindClarify || len(pl.Options) != 2 {
		t.Errorf("expenses by category: %s %q %v", pl.Kind, pl.Reason, pl.Options)
	}
	for _, q := range []string{"how many expenses by category this year", "total expenses by category this year", "number of expenses by category this year"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindMetric {
			t.Errorf("%q: %s %q %v", q, pl.Kind, pl.Reason, pl.Options)
		}
	}
}
