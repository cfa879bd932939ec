package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestRanges: "between A and B" is the two inclusive comparisons it means,
// on the column, measure or table it bounds, written either way round;
// "no less than A and no more than B" says the second bound of the same
// column; "between" before dates or words is no range of numbers.
func TestRanges(t *testing.T) {
	p := New(testModel(), nil)
	ge := func(field string, n float64) semantic.Filter {
		return semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{fmtNum(n)}}
	}
	le := func(field string, n float64) semantic.Filter {
		return semantic.Filter{Field: field, Op: semantic.OpLe, Values: []any{fmtNum(n)}}
	}
	count := func(f semantic.Filter) semantic.Filter {
		f.Field, f.Count = "orders", true
		return f
	}
	for _, tc := range []struct {
		q       string
		kind    Kind
		filters []semantic.Filter
	}{
		{"products with a price between 10 and 20", KindRows, []semantic.Filter{ge("products.unit_price", 10), le("products.unit_price", 20)}},
		{"how many products with a price between 20 and 10", KindMetric, []semantic.Filter{ge("products.unit_price", 10), le("products.unit_price", 20)}},
		{"products priced no less than 10 and no more than 20", KindRows, []semantic.Filter{ge("products.unit_price", 10), le("products.unit_price", 20)}},
		{"how many customers have between 2 and 3 orders", KindMetric, []semantic.Filter{count(ge("", 2)), count(le("", 3))}},
		{"customers with at least 2 orders and at most 3 orders", KindRows, []semantic.Filter{count(ge("", 2)), count(le("", 3))}},
		// The period after the second bound is the counted orders'.
		{"how many customers had between 2 and 3 orders in 2025", KindMetric, []semantic.Filter{
			inPeriod(count(ge("", 2)), "2025-01-01", "2026-01-01"), inPeriod(count(le("", 3)), "2025-01-01", "2026-01-01")}},
		// Money is never a year: "$2000" bounds the revenue.
		{"customers with revenue between $1000 and $2000 in 2025", KindMetric, []semantic.Filter{ge("revenue", 1000), le("revenue", 2000), {Field: "customers.id", Op: semantic.OpNotNull}}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != tc.kind {
				t.Fatalf("%s (%s %v), want %s", pl.Kind, pl.Reason, pl.Unknown, tc.kind)
			}
			if diff := cmp.Diff(tc.filters, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *pl.Query, "sqlite"); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
	// Years stay years, and "between" of two words is no range.
	for q, want := range map[string]string{
		"orders between 2024 and 2025":  "2024-01-01",
		"revenue between March and May": "2026-03-01",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query.TimeRange == nil || pl.Query.TimeRange.From != want {
			t.Errorf("%q: %s %+v, want a period from %s", q, pl.Kind, pl.Query, want)
		}
	}
	if pl := p.Plan("orders between Acme and Globex", asOf); pl.Kind != KindUnanswered {
		t.Errorf("orders between two words: %s, want refused", pl.Kind)
	}
}

// TestCountGroups: "how many customers had revenue over 1000" counts the
// customers whose revenue passes, grouping the measure by the customers'
// key; it is refused where the groups would not be the table's rows (a
// measure reached through a one-to-many join), where the count is of
// some rows only, and where a row with none of the measure's rows would
// pass the condition.
func TestCountGroups(t *testing.T) {
	p := New(testModel(), nil)
	for _, tc := range []struct {
		q      string
		want   *semantic.Query // nil: refused
		reason string
	}{
		{q: "how many customers with revenue over 1000 in 2025", want: &semantic.Query{
			Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "customers.id"}}, CountGroups: "count_customers",
			Filters:   []semantic.Filter{{Field: "revenue", Op: semantic.OpGt, Values: []any{fmtNum(1000)}}, {Field: "customers.id", Op: semantic.OpNotNull}},
			TimeRange: &semantic.TimeRange{From: "2025-01-01", To: "2026-01-01"}}},
		{q: "how many orders with revenue above $100 last month", want: &semantic.Query{
			Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "orders.id"}}, CountGroups: "orders",
			Filters:   []semantic.Filter{{Field: "revenue", Op: semantic.OpGt, Values: []any{fmtNum(100)}}, {Field: "orders.id", Op: semantic.OpNotNull}},
			TimeRange: &semantic.TimeRange{From: "2026-05-01", To: "2026-06-01"}}},
		// Employees reach revenue through the tickets they handled: no
		// order line belongs to one employee.
		{q: "how many employees with revenue over 1000", reason: "needs something to group by"},
		// Two measures with conditions: not one group's condition.
		{q: "how many customers with revenue over 1000 and more than 5 orders", reason: ""},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if tc.want == nil {
				if pl.Kind == KindMetric || pl.Kind == KindRows {
					t.Fatalf("answered %+v, want refused", pl.Query)
				}
				if !strings.Contains(pl.Reason, tc.reason) {
					t.Errorf("reason %q, want one with %q", pl.Reason, tc.reason)
				}
				return
			}
			if pl.Kind != KindMetric {
				t.Fatalf("%s (%s %v), want metric", pl.Kind, pl.Reason, pl.Unknown)
			}
			got := *pl.Query
			if got.TimeRange != nil {
				got.TimeRange = &semantic.TimeRange{From: got.TimeRange.From, To: got.TimeRange.To}
			}
			if diff := cmp.Diff(*tc.want, got); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
			c, err := semantic.Compile(pl.Model(testModel()), *pl.Query, "postgres")
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if !strings.HasPrefix(c.SQL, "SELECT COUNT(*) AS ") || !strings.Contains(c.SQL, "HAVING") {
				t.Errorf("SQL does not count the groups that pass:\n%s", c.SQL)
			}
		})
	}
	// Customers with no revenue at all have less than 100 too, and no
	// group: the zero_groups check refuses the count before it runs.
	pl := p.Plan("how many customers with revenue under 100 in 2025", asOf)
	if pl.Kind != KindMetric || pl.Query.CountGroups == "" {
		t.Fatalf("%s %+v, want a count of groups", pl.Kind, pl.Query)
	}
	if zs := verify.ZeroGroupsMissing(pl.Model(testModel()), pl.Query); len(zs) == 0 {
		t.Errorf("revenue under 100: no zero_groups refusal")
	}
}
