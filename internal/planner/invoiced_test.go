package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestInvoicedAmount: "invoiced amount by clinic" and "total invoiced
// amount by clinic" are the invoices' own amount (total_cents) where
// "amount" is a synonym of the payments' column (found from outside, on
// a vet chain: refused, the verb read as no table).
func TestInvoicedAmount(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "clinics", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: []semantic.Column{id("id"), id("clinic_id"),
				{Name: "issued_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "total_cents", Type: quarry.TypeInt, Unit: "cents"},
				{Name: "status", Type: quarry.TypeText, Values: []string{"open", "paid", "void"}}}},
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{id("id"), id("invoice_id"),
				{Name: "paid_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents", Synonyms: []string{"amount"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "invoices", FromColumn: "clinic_id", To: "clinics", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "payments", FromColumn: "invoice_id", To: "invoices", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	metricCases(t, m, []struct{ q, want string }{
		{"invoiced amount by clinic", "SUM(invoices.total_cents)"},
		{"total invoiced amount by clinic", "SUM(invoices.total_cents)"},
	})
}
