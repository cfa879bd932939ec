package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestUnevenWeekdays: the days of the week over May 2026 (five Fridays,
// Saturdays and Sundays) warn; over whole weeks, over a year (one extra
// day weighs under 2%) or with no period they do not; and "by day of
// week" asks for the day of the week, not for each day.
func TestUnevenWeekdays(t *testing.T) {
	m := coverageModel()
	dow := []semantic.DimRef{{Name: "day_of_week", Grain: semantic.GrainDayOfWeek}}
	find := func(checks []Check, name string) *Check {
		for i := range checks {
			if checks[i].Name == name {
				return &checks[i]
			}
		}
		return nil
	}
	for _, tt := range []struct {
		question, from, to string
		warn               bool
	}{
		{"which day of the week had the most orders last month", "2026-05-01", "2026-06-01", true},
		{"orders by day of week last 4 weeks", "2026-06-01", "2026-06-29", false},
		{"orders by day of week in 2025", "2025-01-01", "2026-01-01", false},
		{"orders by day of week", "", "", false},
	} {
		q := semantic.Query{Metrics: []string{"orders"}, Dimensions: dow}
		if tt.from != "" {
			q.TimeRange = &semantic.TimeRange{From: tt.from, To: tt.to}
		}
		checks := Coverage(tt.question, "2026-06-30", m, &q)
		c := find(checks, CheckPartial)
		if tt.warn != (c != nil && c.Status == Warn) {
			t.Errorf("%s: partial_period %+v; want warn %v", tt.question, c, tt.warn)
		}
		if tt.warn && !strings.Contains(c.Detail, "5 each of Friday, Saturday, Sunday") {
			t.Errorf("%s: %s", tt.question, c.Detail)
		}
		if g := find(checks, CheckGrain); g == nil || g.Status != Pass {
			t.Errorf("%s: time_grain %+v; want a pass", tt.question, g)
		}
	}
	// A grouping by each day where the question asks for the day of the
	// week fails.
	q := semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: "day", Grain: semantic.GrainDay}}}
	if g := find(Coverage("orders by day of week", "2026-06-30", m, &q), CheckGrain); g == nil || g.Status != Fail {
		t.Errorf("by day for the day of the week: %+v", g)
	}
}
