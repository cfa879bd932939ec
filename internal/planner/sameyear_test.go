package planner

import (
	"strings"
	"testing"
	"time"
)

// TestSameOfYear: a period shorter than a year compared with a year is
// the same period of that year; a year against a year, a year named with
// a possessive and a year before the period are read as written.
func TestSameOfYear(t *testing.T) {
	p := New(testModel(), nil)
	mid := time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q     string
		asOf  time.Time
		want  []string // each compared period as From–To, earlier first; nil when refused
		label string   // a phrase of a period's label
	}{
		{"revenue this month compared to last year", asOf, []string{"2025-06-01–2025-07-01", "2026-06-01–2026-07-01"}, "the same month last year (June 2025)"},
		{"orders in Q1 vs last year", asOf, []string{"2025-01-01–2025-04-01", "2026-01-01–2026-04-01"}, "the same quarter last year (Q1 2025)"},
		{"revenue this month vs the previous year", asOf, []string{"2025-06-01–2025-07-01", "2026-06-01–2026-07-01"}, "June 2025"},
		{"revenue this month vs a year ago", asOf, []string{"2025-06-01–2025-07-01", "2026-06-01–2026-07-01"}, "June 2025"},
		{"revenue this month vs the year before", asOf, []string{"2025-06-01–2025-07-01", "2026-06-01–2026-07-01"}, "the same month the year before (June 2025)"},
		{"revenue growth this month vs last year", asOf, []string{"2025-06-01–2025-07-01", "2026-06-01–2026-07-01"}, "June 2025"},
		{"revenue Q1 2026 vs 2025", asOf, []string{"2025-01-01–2025-04-01", "2026-01-01–2026-04-01"}, "the same quarter in 2025 (Q1 2025)"},
		{"revenue in May compared to 2025", asOf, []string{"2025-05-01–2025-06-01", "2026-05-01–2026-06-01"}, "May 2025"},
		{"Q1 revenue 2025 vs 2026", asOf, []string{"2025-01-01–2025-04-01", "2026-01-01–2026-04-01"}, "Q1 2025"},
		{"Q1 revenue 2024 vs 2025", asOf, []string{"2024-01-01–2024-04-01", "2025-01-01–2025-04-01"}, "Q1 2024"},
		// Not over: the same days of each.
		{"revenue this quarter vs last year", mid, []string{"2025-04-01–2025-06-16", "2026-04-01–2026-06-16"}, "the same period last year"},
		{"revenue in June 2025 vs 2026", mid, []string{"2025-06-01–2025-06-16", "2026-06-01–2026-06-16"}, "2025-06-01 to 2025-06-15"},
		// As written.
		{"revenue this year vs last year", asOf, []string{"2025-01-01–2026-01-01", "2026-01-01–2026-07-01"}, "last year (2025)"},
		{"revenue 2025 vs Q1 2026", asOf, []string{"2025-01-01–2026-01-01", "2026-01-01–2026-04-01"}, "2025"},
		// A quarter of a year not started: refused, not an empty period.
		{"revenue Q3 2025 vs 2026", asOf, nil, "not started"},
		{"revenue last month compared to last year's average", asOf, nil, ""},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, tt.asOf)
			if tt.want == nil {
				if pl.Kind == KindMetric {
					t.Fatalf("answered %+v; want a refusal", pl.Query)
				}
				if !strings.Contains(pl.Reason, tt.label) {
					t.Errorf("reason %q; want %q", pl.Reason, tt.label)
				}
				return
			}
			if pl.Kind != KindMetric {
				t.Fatalf("%s: %s", pl.Kind, pl.Reason)
			}
			var got, labels []string
			for _, c := range pl.Query.Compare {
				got = append(got, c.From+"–"+c.To)
				labels = append(labels, c.Label)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("compared %v; want %v", got, tt.want)
			}
			if !strings.Contains(strings.Join(labels, "; "), tt.label) {
				t.Errorf("labels %v; want %q", labels, tt.label)
			}
		})
	}
}
