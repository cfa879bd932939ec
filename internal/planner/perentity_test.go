package planner

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/semantic"
)

// demoPlanner is the builtin planner over the demo's knowledge.
func demoPlanner(t *testing.T) *Planner {
	t.Helper()
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	return New(f.Model, nil)
}

// TestAveragePer reads an average per entity (over every row of it) and
// per day or month of a period that is over, and refuses the readings
// it cannot settle.
func TestAveragePer(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q, derived, refuse string
	}{
		{q: "average revenue per customer", derived: "{revenue_of_customers} / {number_of_customers}"},
		{q: "orders per customer on average", derived: "{orders_of_customers} / {number_of_customers}"},
		{q: "avg tickets per customer", derived: "{tickets_of_customers} / {number_of_customers}"},
		{q: "average orders per day last month", derived: "{orders} / 31"},
		{q: "average number of orders per day last month", derived: "{orders} / 31"},
		{q: "average revenue per month in 2025", derived: "{revenue} / 12"},
		{q: "average revenue per day in Q1 2026", derived: "{revenue} / 90"},
		{q: "average revenue per customer last year", refuse: "which customers are counted"},
		{q: "average revenue per customer in Germany", refuse: "which customers are counted"},
		{q: "average revenue per employee", refuse: "cannot spread it per employee"},
		{q: "average orders per day this month", refuse: "is not over"},
		{q: "average revenue per day", refuse: "needs a period"},
		{q: "average revenue per month last 30 days", refuse: "not whole months"},
		{q: "average orders per order", refuse: "cannot spread it per order"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.refuse != "" {
				if pl.Kind == KindMetric || pl.Kind == KindRows || !strings.Contains(pl.Reason, tt.refuse) {
					t.Fatalf("kind %s, reason %q; want a refusal saying %q", pl.Kind, pl.Reason, tt.refuse)
				}
				return
			}
			if pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 {
				t.Fatalf("kind %s, reason %q; want one metric", pl.Kind, pl.Reason)
			}
			mt := pl.Model(p.m).Metric(pl.Query.Metrics[0])
			if mt == nil || mt.Derived != tt.derived || len(pl.Notes) == 0 || !strings.Contains(pl.Notes[0], "with none included") {
				t.Fatalf("metric %+v, notes %q; want %s, said to include those with none", mt, pl.Notes, tt.derived)
			}
			// Only the rows that are some customer's: an order with no
			// customer (a guest's) is spread over no one (found from
			// outside: 10.21 for 7.59, at 1.00).
			if num, _, ok := strings.Cut(strings.TrimPrefix(tt.derived, "{"), "}"); ok && strings.HasSuffix(num, "_of_customers") {
				if n := pl.Model(p.m).Metric(num); n == nil || !slices.Contains(n.Filters, "customers.id IS NOT NULL") {
					t.Errorf("numerator %+v: want only the rows of a customer", n)
				}
			}
		})
	}
}

func TestAdditive(t *testing.T) {
	for expr, want := range map[string]bool{
		"SUM(order_items.quantity)":          true,
		"COUNT(orders.id)":                   true,
		"count(*)":                           true,
		"COUNT(DISTINCT orders.customer_id)": false,
		"AVG(support_tickets.satisfaction)":  false,
		"SUM(a.x) / SUM(a.y)":                false,
		"SUM(a.x * (1 - a.d))":               true,
		"MAX(products.unit_price)":           false,
	} {
		if got := additive(&semantic.Metric{Expr: expr}); got != want {
			t.Errorf("additive(%s) = %v, want %v", expr, got, want)
		}
	}
}

// TestAverageRowsPer: "average bookings per member", a table with no
// count of its own in the knowledge, is the number of bookings per
// member, as "average number of bookings per member" reads (found from
// outside: refused). A table of money is not read so: amounts or how
// many?
func TestAverageRowsPer(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: "int"} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "members", PrimaryKey: "id", Columns: []semantic.Column{id("id")}},
			{Name: "class_bookings", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("member_id")}},
			{Name: "payments", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("member_id"), {Name: "amount", Type: "float"}}},
		},
		Relationships: []semantic.Relationship{
			{From: "class_bookings", FromColumn: "member_id", To: "members", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "payments", FromColumn: "member_id", To: "members", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	if pl := p.Plan("average class bookings per member", asOf); pl.Kind != KindMetric || len(pl.AdHoc) == 0 || !strings.Contains(pl.AdHoc[len(pl.AdHoc)-1].Derived, "{count_class_bookings_of_members} / {number_of_members}") {
		t.Errorf("bookings: %s %q %+v", pl.Kind, pl.Reason, pl.AdHoc)
	}
	if pl := p.Plan("average payments per member", asOf); pl.Kind == KindMetric && len(pl.AdHoc) > 0 && strings.Contains(pl.AdHoc[len(pl.AdHoc)-1].Derived, "count_payments") {
		t.Errorf("payments counted: %+v", pl.AdHoc)
	}
}
