package planner

import (
	"strings"
	"testing"
)

// TestGrowth: growth is read only as the change between two periods of
// one measure, which a comparison states: over one whole period, the change
// from the period before it. Growth by period, by group, over a span of
// several periods, between periods of unequal length or with no period is
// refused, never answered as the series or the totals.
func TestGrowth(t *testing.T) {
	p := New(testModel(), nil)
	for _, tt := range []struct {
		q    string
		from string // the first compared period's start; "" when refused
	}{
		// This year is not over: half a year against a whole one.
		{"revenue growth this year vs last year", ""},
		{"revenue growth this year", ""},
		// An average over half a year is like one over a whole year.
		{"aov growth this year vs last year", "2025-01-01"},
		{"revenue growth this year vs the same period last year", "2025-01-01"},
		{"revenue growth year to date vs last year to date", "2025-01-01"},
		{"revenue growth in 2025 vs 2024", "2024-01-01"},
		{"revenue growth last quarter vs the quarter before", "2025-10-01"},
		{"orders growth 2024 vs 2025", "2024-01-01"},
		{"year over year revenue growth by month", ""},
		{"month over month revenue growth", ""},
		{"revenue growth", ""},
		{"revenue growth rate by channel", ""},
		{"revenue growth in 2025 vs 2024 by channel", ""},
		// One whole period: against the one before it.
		{"how much did revenue grow last year", "2024-01-01"},
		{"how much did revenue grow last quarter", "2025-10-01"},
		{"revenue growth last month", "2026-04-01"},
		{"revenue growth last 3 months", ""},
		{"revenue growth since 2025", ""},
		{"growth in orders by month", ""},
		{"revenue and orders growth this year vs last year", ""},
		{"revenue growth trend", ""},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.from == "" {
				if pl.Kind == KindMetric {
					t.Fatalf("answered %+v; want a refusal", pl.Query)
				}
				if pl.Kind == KindUnanswered && !strings.Contains(pl.Reason, "growth") {
					t.Errorf("reason %q; want it to say how growth is read", pl.Reason)
				}
				return
			}
			if pl.Kind != KindMetric || len(pl.Query.Compare) != 2 || len(pl.Query.Dimensions) != 0 {
				t.Fatalf("%s %s %+v; want a comparison of two periods", pl.Kind, pl.Reason, pl.Query)
			}
			if pl.Query.Compare[0].From != tt.from {
				t.Errorf("first period %+v; want from %s", pl.Query.Compare[0], tt.from)
			}
			if !strings.Contains(strings.Join(pl.Understood, "; "), "growth") {
				t.Errorf("understood %v; want the growth named", pl.Understood)
			}
		})
	}
}
