package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
)

// TestHeldValueOfAnotherColumn: a literal held to a column whose values the
// knowledge lists, and not among them, that is a known value of another
// column of the same table or of one joined to it, is not answered — a
// count of 0 at good confidence would be the worst answer — but refused,
// naming where the value is. However the question binds it: "with
// priority X", "whose priority is X", "where the priority is X".
// Adversarial: a value the column lists, or a column whose values are not
// listed (a name), is read as before.
func TestHeldValueOfAnotherColumn(t *testing.T) {
	p := New(testModel(), nil)
	for _, tc := range []struct {
		q     string
		where string // "" = answered
	}{
		{"tickets with priority shipping last week", "support_tickets.category"},
		{"how many tickets whose priority is billing", "support_tickets.category"},
		{"support tickets where the category is urgent", "support_tickets.priority"},
		{"customers whose city is Germany", "customers.country"},
		{"customers whose segment is Germany", "customers.country"},
		{"orders whose channel is Germany", "customers.country"},
		{"tickets with priority high last week", ""},
		{"customers whose country is Germany", ""},
		{"products with name Electronics", ""},
		{"list products whose name is Books", ""},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.where == "" {
				if pl.Kind != KindMetric && pl.Kind != KindRows {
					t.Fatalf("%s: %s %v; want it answered", pl.Kind, pl.Reason, pl.Unknown)
				}
				return
			}
			if pl.Kind != KindUnanswered && pl.Kind != KindClarify {
				t.Fatalf("%s %+v; want a refusal or a question naming %s", pl.Kind, pl.Query, tc.where)
			}
			if msg := pl.Reason + " " + pl.Question; !strings.Contains(msg, tc.where) {
				t.Errorf("%q does not name %s", msg, tc.where)
			}
		})
	}
}

// TestHeldValueOfAnotherColumnDemo: the same on the demo knowledge, where
// outside testers found "Tickets with priority Shipping last week"
// answered 0 at confidence 0.85 (Shipping is a category). A literal the
// named column lists, or one after "a" (any code, and the web channel),
// is read as before.
func TestHeldValueOfAnotherColumnDemo(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	for _, tc := range []struct {
		q     string
		where string // "" = answered
	}{
		{"Tickets with priority Shipping last week", "support_tickets.category"},
		{"how many support tickets have the priority Returns in 2025", "support_tickets.category"},
		{"tickets whose category is urgent", "support_tickets.priority"},
		{"orders with discount code web", "orders.channel"},
		{"employees whose title is Sales", "employees.department"},
		{"revenue from orders whose channel is Germany", "customers.country"},
		// Negated, the value left to its own column listed the tickets'
		// priorities where the category is not Shipping, at 1.00.
		{"tickets whose priority is not Shipping", "support_tickets.category"},
		{"tickets with priority not Billing last month", "support_tickets.category"},
		{"Tickets with priority high last week", ""},
		// "high priority" names a priority; the category follows it.
		{"high priority Shipping tickets last week", ""},
		{"how many urgent priority Billing tickets", ""},
		{"tickets whose priority is not high", ""},
		{"tickets whose category is Shipping", ""},
		{"revenue from orders with a discount code web", ""},
		{"orders with the WELCOME10 code", ""},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.where == "" {
				if pl.Kind != KindMetric && pl.Kind != KindRows {
					t.Fatalf("%s: %s %v; want it answered", pl.Kind, pl.Reason, pl.Unknown)
				}
				return
			}
			if pl.Kind != KindUnanswered {
				t.Fatalf("%s %+v; want a refusal naming %s", pl.Kind, pl.Query, tc.where)
			}
			if !strings.Contains(pl.Reason, tc.where) {
				t.Errorf("%q does not name %s", pl.Reason, tc.where)
			}
		})
	}
}

// TestHeldValueOfAnotherColumnIndexed: a value a value index found in
// another column (a name, which the knowledge does not list) is known
// there too; one it found in the named column itself is that column's.
func TestHeldValueOfAnotherColumnIndexed(t *testing.T) {
	p := New(testModel(), nil)
	priya := []Value{{Entity: "customers", Column: "name", Value: "Priya Dawson"}}
	if pl := p.PlanValues("orders whose channel is Priya Dawson", asOf, priya); pl.Kind != KindUnanswered || !strings.Contains(pl.Reason, "customers.name") {
		t.Errorf("%s %q %+v; want a refusal naming customers.name", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.PlanValues("how many orders by Priya Dawson", asOf, priya); pl.Kind != KindMetric {
		t.Errorf("%s %q; want it answered", pl.Kind, pl.Reason)
	}
	kiosk := []Value{{Entity: "orders", Column: "channel", Value: "kiosk"}}
	if pl := p.PlanValues("orders whose channel is kiosk", asOf, kiosk); pl.Kind != KindMetric {
		t.Errorf("%s %q; want the stored channel kiosk read as a channel", pl.Kind, pl.Reason)
	}
}
