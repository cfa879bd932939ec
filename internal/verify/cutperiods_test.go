package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCutPeriods: a ranking of periods over a range that cuts its first
// or last period is refused; whole periods, breakdowns in time order and
// days are not.
func TestCutPeriods(t *testing.T) {
	m := &semantic.Model{Metrics: []semantic.Metric{{Name: "orders"}}}
	rank := func(g semantic.Grain, from, to string, order string) *semantic.Query {
		q := &semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: string(g), Grain: g}},
			TimeRange: &semantic.TimeRange{From: from, To: to}, Limit: 1}
		if order != "" {
			q.Order = []semantic.Order{{Field: order}}
		}
		return q
	}
	for _, tt := range []struct {
		name string
		q    *semantic.Query
		cut  string // "" when it ranks whole periods
	}{
		{"weeks of a year", rank(semantic.GrainWeek, "2025-01-01", "2026-01-01", "orders"), "week that starts 2024-12-30"},
		{"quarters of six months", rank(semantic.GrainQuarter, "2025-12-01", "2026-06-01", "orders"), "quarter that starts 2025-10-01"},
		{"months since a day", rank(semantic.GrainMonth, "2026-03-15", "2026-07-01", "orders"), "month that starts 2026-03-01"},
		{"months ending inside one", rank(semantic.GrainMonth, "2026-05-01", "2026-06-16", "orders"), "month that starts 2026-06-01"},
		{"months of a year", rank(semantic.GrainMonth, "2025-01-01", "2026-01-01", "orders"), ""},
		{"quarters of a year", rank(semantic.GrainQuarter, "2025-01-01", "2026-01-01", "orders"), ""},
		{"weeks from a Monday to a Monday", rank(semantic.GrainWeek, "2025-01-06", "2025-03-03", "orders"), ""},
		{"days", rank(semantic.GrainDay, "2025-01-01", "2025-01-18", "orders"), ""},
		{"in time order", rank(semantic.GrainWeek, "2025-01-01", "2026-01-01", ""), ""},
		{"by the period itself", rank(semantic.GrainWeek, "2025-01-01", "2026-01-01", "week"), ""},
	} {
		got := CutPeriods(m, tt.q)
		if tt.cut == "" && got != "" || tt.cut != "" && !strings.Contains(got, tt.cut) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.cut)
		}
	}
}
