package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestAmountOfNamed: "the amount of" a table that records money is its
// rows' own amount, whatever it is called, not another table's column
// called amount (found from outside: "total amount of open invoices" the
// sum of the payments made on them, 689,600 for 3,597,700 at 0.85, and
// "total amount of invoices" refused). The payments' own amount stays
// theirs.
func TestAmountOfNamed(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: []semantic.Column{id("id"),
				{Name: "issued_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "total_cents", Type: quarry.TypeInt, Unit: "cents"},
				{Name: "status", Type: quarry.TypeText, Values: []string{"open", "paid", "refunded"}}}},
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{id("id"), id("invoice_id"),
				{Name: "paid_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents"},
				{Name: "method", Type: quarry.TypeText, Values: []string{"card", "cash"}}}},
		},
		Relationships: []semantic.Relationship{{From: "payments", FromColumn: "invoice_id", To: "invoices", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string]string{
		"total amount of open invoices":       "SUM(invoices.total_cents)",
		"total amount of invoices last year":  "SUM(invoices.total_cents)",
		"average amount of refunded invoices": "AVG(invoices.total_cents)",
		"total amount of payments":            "SUM(payments.amount_cents)",
		"total amount of card payments":       "SUM(payments.amount_cents)",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 {
			t.Errorf("%q: %s %q; want %s", q, pl.Kind, pl.Reason, want)
			continue
		}
		if mt := pl.Model(m).Metric(pl.Query.Metrics[0]); mt == nil || !strings.EqualFold(mt.Expr, want) {
			t.Errorf("%q: %+v; want %s", q, mt, want)
		}
	}
}

// TestAmountOfNamedOnce: "the charge amount of the most expensive charge
// type" names the charges' amount already; read again, it would say
// "charge charge amount of …", and again, without end (found in the
// Spider run, which never returned). A reading that still says "amount
// of" is not made.
func TestAmountOfNamedOnce(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "Charges", PrimaryKey: "charge_id", Columns: []semantic.Column{{Name: "charge_id", Type: quarry.TypeInt},
				{Name: "charge_type", Type: quarry.TypeText, Values: []string{"Daily Accommodation", "Drugs", "Health Check"}},
				{Name: "charge_amount", Type: quarry.TypeFloat}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	// Before the mend this never returned; the test binary's own
	// timeout ends it.
	New(m, nil).Plan("What is the charge amount of the most expensive charge type?", asOf)
}
