package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMedian reads medians and percentiles of a metric that averages a
// value per row, and refuses every other reading of "median" with a
// reason instead of an average or a total under the median's name.
func TestMedian(t *testing.T) {
	p := demoPlanner(t)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q          string
		metric     string
		percentile int
		dims       []semantic.DimRef
		from, to   string
		refuse     string
	}{
		{q: "median pages per session", metric: "pages_per_session", percentile: 50},
		{q: "median resolution time for tickets this year", metric: "average_resolution_hours", percentile: 50, from: "2026-01-01", to: "2026-07-01"},
		{q: "what's the middle value of ticket resolution time", metric: "average_resolution_hours", percentile: 50},
		{q: "median resolution hours by priority", metric: "average_resolution_hours", percentile: 50, dims: []semantic.DimRef{{Name: "priority"}}},
		{q: "median pages per session by month in 2025", metric: "pages_per_session", percentile: 50, dims: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}}, from: "2025-01-01", to: "2026-01-01"},
		{q: "p90 pages per session", metric: "pages_per_session", percentile: 90},
		{q: "90th percentile of resolution time", metric: "average_resolution_hours", percentile: 90},
		{q: "median order value last quarter", refuse: "average order value is a ratio of two figures"},
		{q: "median order value by channel last year", refuse: "average order value is a ratio of two figures"},
		{q: "median revenue", refuse: "revenue is a total"},
		// Found from outside: the average was dropped.
		{q: "average and median resolution time", refuse: "not both at once"},
		{q: "mean vs median pages per session", refuse: "not both at once"},
		{q: "median number of orders", refuse: "orders is a count of rows"},
		{q: "median customers by country", refuse: "customers is a count of rows"},
		{q: "median refund rate", refuse: "refund rate is a ratio of two figures"},
		{q: "median conversion rate", refuse: "the median of yes/no values is 0 or 1"},
		{q: "median revenue per customer", refuse: "a median per customer"},
		{q: "median customer name", refuse: "did not read \"customer name\""},
		{q: "median", refuse: "does not say of what"},
		{q: "p100 pages per session", refuse: "between 1 and 99"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.refuse != "" {
				if pl.Kind == KindMetric || pl.Kind == KindRows || !strings.Contains(pl.Reason, tt.refuse) {
					t.Fatalf("kind %s, reason %q; want a refusal saying %q", pl.Kind, pl.Reason, tt.refuse)
				}
				if !strings.Contains(pl.Reason, "pages per session, average satisfaction, average resolution hours") && tt.percentile == 0 && !strings.Contains(tt.refuse, "between") {
					t.Errorf("reason %q does not name what quarry takes a median of", pl.Reason)
				}
				return
			}
			if pl.Kind != KindMetric || pl.Query == nil {
				t.Fatalf("kind %s, reason %q; want a metric", pl.Kind, pl.Reason)
			}
			q := pl.Query
			var from, to string
			if q.TimeRange != nil {
				from, to = q.TimeRange.From, q.TimeRange.To
			}
			got := []any{q.Metrics, q.Percentile, q.Dimensions, from, to}
			want := []any{[]string{tt.metric}, tt.percentile, tt.dims, tt.from, tt.to}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("query (-want +got):\n%s", diff)
			}
			word := "Median"
			if tt.percentile != 50 {
				word = "90th percentile"
			}
			if !strings.HasPrefix(pl.Title, word) || strings.Contains(strings.ToLower(pl.Title), "average") {
				t.Errorf("title %q; want it to start with %q and not say average", pl.Title, word)
			}
			if _, err := semantic.Compile(pl.Model(p.m), *q, "sqlite"); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
}
