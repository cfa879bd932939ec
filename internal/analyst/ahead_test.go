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
