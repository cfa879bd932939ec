package planner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPaidAlone: money said paid with no table named is the total of the
// one table of payments, those that went through, in their own time,
// compared periods too (found from outside: "total paid last month" and
// "top 5 customers by total paid this year" refused as "rows with
// paid", an invoice status; May against May counted failed payments).
func TestPaidAlone(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: []semantic.Column{id("id"), id("customer_id"),
				{Name: "issued_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"issued", "paid"}}, {Name: "amount_cents", Type: quarry.TypeInt}}},
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{id("id"), id("invoice_id"),
				{Name: "paid_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "status", Type: quarry.TypeText, Values: []string{"succeeded", "failed"}}, {Name: "amount_cents", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{
			{From: "invoices", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "payments", FromColumn: "invoice_id", To: "invoices", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"total paid last month", "top 5 customers by total paid this year", "total paid last month vs the same month last year"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite")
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		for _, w := range []string{"SUM(payments.amount_cents)", "payments.status = 'succeeded'", "payments.paid_at"} {
			if !strings.Contains(c.SQL, w) {
				t.Errorf("%q: SQL lacks %q:\n%s", q, w, c.SQL)
			}
		}
	}
	// A table named is read as it is said.
	if pl := p.Plan("how many paid invoices last month", asOf); pl.Query != nil {
		if got := fmt.Sprint(pl.Query.Metrics); strings.Contains(got, "payments") {
			t.Errorf("paid invoices read as payments: %s", got)
		}
	}
}

// TestMoneyByItsOwnWord: "quoted amount" is quoted_total_cents, its own
// word with a word for an amount, not the amount of another table's
// payments (found from outside: "total quoted amount of reserved
// rentals" refused as the payments' amount).
func TestMoneyByItsOwnWord(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "rentals", PrimaryKey: "id", Columns: []semantic.Column{id("id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"reserved", "completed"}}, id("quoted_total_cents")}},
			{Name: "payments", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("rental_id"), id("amount_cents")}},
		},
		Relationships: []semantic.Relationship{{From: "payments", FromColumn: "rental_id", To: "rentals", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, q := range []string{"total quoted amount of reserved rentals", "total quoted value of rentals"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil {
			t.Errorf("%q: %s %q", q, pl.Kind, pl.Reason)
			continue
		}
		c, err := semantic.Compile(pl.Model(p.m), *pl.Query, "sqlite")
		if err != nil || !strings.Contains(c.SQL, "SUM(rentals.quoted_total_cents)") || strings.Contains(c.SQL, "payments") {
			t.Errorf("%q: %v\n%v", q, err, c)
		}
	}
	if got := moneyHead(semantic.Column{Name: "amount_cents", Type: quarry.TypeInt}); got != nil {
		t.Errorf("amount_cents: head %v", got)
	}
}
