package analyst

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRankedWhole: a ranking of months over "this year" cut at the as-of
// day ranks the whole months before the one not over, and says so; a
// series, a range not cut, or one that starts in the cut month is kept.
func TestRankedWhole(t *testing.T) {
	plan := func(from, to, end string, ranked bool) *planner.Plan {
		q := &semantic.Query{Metrics: []string{"checkins"}, Dimensions: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}}, TimeRange: &semantic.TimeRange{From: from, To: to}}
		if ranked {
			q.Order, q.Limit = []semantic.Order{{Field: "checkins", Desc: true}}, 1
		}
		return &planner.Plan{Kind: planner.KindMetric, Query: q, PeriodEnd: end}
	}
	got := rankedWhole(plan("2026-01-01", "2026-12-02", "2027-01-01", true))
	if got.Query.TimeRange.To != "2026-12-01" || !strings.Contains(strings.Join(got.Notes, " "), "the month that starts 2026-12-01 is left out of the ranking") {
		t.Errorf("cut ranking: %+v %q", got.Query.TimeRange, got.Notes)
	}
	for name, pl := range map[string]*planner.Plan{
		"a series":                     plan("2026-01-01", "2026-12-02", "2027-01-01", false),
		"a range not cut":              plan("2025-01-01", "2026-01-01", "", true),
		"a range inside the cut month": plan("2026-12-01", "2026-12-02", "2027-01-01", true),
	} {
		if rankedWhole(pl) != pl {
			t.Errorf("%s: changed", name)
		}
	}
}

// TestDerivedTime: a derived metric is bounded by its parts' own dates,
// the control reading the first part's; a part with no date leaves it
// unbounded.
func TestDerivedTime(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{{Name: "id"}, {Name: "ordered_at"}}},
			{Name: "customers", PrimaryKey: "id", TimeColumn: "signup_date", Columns: []semantic.Column{{Name: "id"}, {Name: "signup_date"}}},
			{Name: "notes", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id"}}},
		},
		Metrics: []semantic.Metric{
			{Name: "orders", Entity: "orders", Expr: "COUNT(orders.id)"},
			{Name: "customers", Entity: "customers", Expr: "COUNT(customers.id)"},
			{Name: "notes", Entity: "notes", Expr: "COUNT(notes.id)"},
			{Name: "orders_per_customer", Derived: "{orders} / {customers}"},
			{Name: "notes_per_order", Derived: "{notes} / {orders}"},
		},
	}
	if got := derivedTime(m, m.Metric("orders_per_customer")); got != "orders.ordered_at" {
		t.Errorf("orders per customer: %q", got)
	}
	if got := derivedTime(m, m.Metric("notes_per_order")); got != "" {
		t.Errorf("notes per order: %q", got)
	}
}
