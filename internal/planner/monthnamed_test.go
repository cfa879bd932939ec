package planner

import (
	"testing"
	"time"
)

// TestCurrentMonthNamed: a month named with no year that is the month of
// the as-of day, not over, is asked about (found from outside: "since
// December" on December 5th read as five days, 4,021 lapsed customers for
// 2); with its year, on its last day, or another month, it is read.
func TestCurrentMonthNamed(t *testing.T) {
	p := New(testModel(), nil)
	dec5 := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{"customers who haven't ordered since December", "revenue in december", "orders in Dec"} {
		pl := p.Plan(q, dec5)
		if pl.Kind != KindClarify || len(pl.Options) != 2 {
			t.Errorf("%q: %s %q %v; want a question", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		for i, want := range []string{"December 2026", "December 2025"} {
			if again := p.Plan(pl.Options[i], dec5); again.Kind == KindClarify || again.Kind == KindUnanswered {
				t.Errorf("option %q (%s): %s %q", pl.Options[i], want, again.Kind, again.Reason)
			}
		}
	}
	for _, tc := range []struct {
		q  string
		at time.Time
	}{
		{"revenue in December 2026", dec5},
		{"revenue in November", dec5},
		{"revenue this month", dec5},
		{"revenue in december", time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)},
	} {
		if pl := p.Plan(tc.q, tc.at); pl.Kind == KindClarify {
			t.Errorf("%q on %s: asked %q", tc.q, tc.at.Format("2006-01-02"), pl.Question)
		}
	}
}
