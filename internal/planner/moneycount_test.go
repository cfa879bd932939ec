package planner

import (
	"strings"
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

// TestPaymentsReceivedCounted: "payments received last month by method"
// may mean the money or how many payments came in; it was answered as
// the number of payments at 0.85 where the tester meant the money (found
// from outside, on a yacht-charter company). Either word said decides.
func TestPaymentsReceivedCounted(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{id("id"),
				{Name: "paid_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents", Synonyms: []string{"amount"}},
				{Name: "method", Type: quarry.TypeText, Values: []string{"card", "cash"}},
				{Name: "status", Type: quarry.TypeText, Values: []string{"succeeded", "failed"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"payments received last month by method", "payments collected by method in May"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindClarify || len(pl.Options) != 2 {
			t.Errorf("%q: %s %q %v; want how many or their total asked", q, pl.Kind, pl.Reason, pl.Options)
		}
	}
	for q, expr := range map[string]string{
		"how many payments were received last month": "COUNT(",
		"number of payments received by method":      "COUNT(",
		"total payments received last month":         "SUM(payments.amount_cents)",
		"payments by method":                         "COUNT(",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		if mt := pl.Model(m).Metric(pl.Query.Metrics[0]); mt == nil || !strings.HasPrefix(mt.Expr, expr) {
			t.Errorf("%q: measures %+v; want %s", q, mt, expr)
		}
	}
}
