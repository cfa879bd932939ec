package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPerRowCounts: a condition on how many rows of a table each row of
// another has is a count filter that keeps the rows with none — listed or
// counted — and stays a grouped condition where the count must be
// limited (a period) or said (a measure asked for), or where the two
// tables are not joined one way.
func TestPerRowCounts(t *testing.T) {
	p := New(testModel(), nil)
	count := func(op semantic.Op, n float64) semantic.Filter {
		return semantic.Filter{Field: "orders", Op: op, Values: []any{fmtNum(n)}, Count: true}
	}
	for _, tc := range []struct {
		q       string
		kind    Kind
		filters []semantic.Filter // nil: the count stays a grouped condition
	}{
		{"customers with fewer than 2 orders", KindRows, []semantic.Filter{count(semantic.OpLt, 2)}},
		{"which customers have at most 1 order", KindRows, []semantic.Filter{count(semantic.OpLe, 1)}},
		{"how many customers have more than 5 orders", KindMetric, []semantic.Filter{count(semantic.OpGt, 5)}},
		{"customers in Germany with fewer than 2 orders", KindRows, []semantic.Filter{count(semantic.OpLt, 2), {Field: "country", Op: semantic.OpEq, Values: []any{"Germany"}}}},
		// The period is the orders': on their own date, in the count
		// filter, so that customers with none in 2025 count as 0.
		{"customers with more than 5 orders in 2025", KindRows, []semantic.Filter{inPeriod(count(semantic.OpGt, 5), "2025-01-01", "2026-01-01")}},
		{"customers with fewer than 2 orders last month", KindRows, []semantic.Filter{inPeriod(count(semantic.OpLt, 2), "2026-05-01", "2026-06-01")}},
		// Adversarial: two periods, or a period on a date the question
		// names (the customers' signup), are no period of the orders.
		{"customers with fewer than 2 orders in 2025 vs 2024", KindMetric, nil},
		{"customers who signed up in 2025 with fewer than 2 orders", KindMetric, nil},
		// The count is asked for, and named twice: not rewritten.
		{"number of orders by customer for customers with more than 5 orders", KindUnanswered, nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != tc.kind {
				t.Fatalf("%s (%s), want %s", pl.Kind, pl.Reason, tc.kind)
			}
			if tc.filters == nil {
				if pl.Query == nil {
					return
				}
				for _, f := range pl.Query.Filters {
					if f.Count {
						t.Errorf("a count filter %+v; want the grouped condition", f)
					}
				}
				return
			}
			if diff := cmp.Diff(tc.filters, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *pl.Query, "sqlite"); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
}

// inPeriod puts a period on a count filter's rows, by the orders' date.
func inPeriod(f semantic.Filter, from, to string) semantic.Filter {
	f.Where = []semantic.Filter{
		{Field: "orders.ordered_at", Op: semantic.OpGe, Values: []any{from}},
		{Field: "orders.ordered_at", Op: semantic.OpLt, Values: []any{to}},
	}
	return f
}
