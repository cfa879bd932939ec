package valueindex

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPlanWithValues: what Lookup finds, the planner reads as filters on
// the stored values, spelled as stored.
func TestPlanWithValues(t *testing.T) {
	ix, _, _ := buildShop(t, Limits{})
	_, m := shop(t)
	p := planner.New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		q    string
		want []semantic.Filter
	}{
		{"how many customers in zurich", []semantic.Filter{{Field: "customers.city", Op: semantic.OpEq, Values: []any{"Zürich"}}}},
		{"how many customers in New York", []semantic.Filter{{Field: "customers.city", Op: semantic.OpEq, Values: []any{"New York"}}}},
		{"how many customers in the USA", []semantic.Filter{{Field: "customers.country", Op: semantic.OpEq, Values: []any{"United States"}}}},
		{"how many orders with ref ORD-1042", []semantic.Filter{{Field: "orders.order_ref", Op: semantic.OpEq, Values: []any{"ORD-1042"}}}},
	} {
		f, err := ix.Lookup(context.Background(), tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if pl := p.Plan(tc.q, asOf); pl.Kind == planner.KindMetric && len(pl.Query.Filters) > 0 {
			t.Errorf("%q: planned without the index: %+v", tc.q, pl.Query.Filters)
		}
		pl := p.PlanValues(f.Question, asOf, f.Values)
		if pl.Kind != planner.KindMetric {
			t.Errorf("%q: %s %s %v", tc.q, pl.Kind, pl.Reason, pl.Unknown)
			continue
		}
		if diff := cmp.Diff(tc.want, pl.Query.Filters); diff != "" {
			t.Errorf("%q filters (-want +got):\n%s", tc.q, diff)
		}
	}
}
