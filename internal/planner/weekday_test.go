package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDayOfWeek: "by day of week", "by weekday", "per day of the week" and
// "which day of the week" group by the day of the week of the measure's
// own date, with the period when one is given; "weekly", "per week", "per
// day" and "which day" keep their meanings; "on weekdays" and "on a
// weekday" are filters (TestWeekPart), never a grouping by the day.
func TestDayOfWeek(t *testing.T) {
	p := New(testModel(), nil)
	for _, tt := range []struct {
		q     string
		grain semantic.Grain // the one grouping's grain; "" when not answered
		from  string         // the period's start, when one is given
		limit int
	}{
		{q: "orders by day of week", grain: semantic.GrainDayOfWeek},
		{q: "orders by day of the week", grain: semantic.GrainDayOfWeek},
		{q: "revenue by weekday last year", grain: semantic.GrainDayOfWeek, from: "2025-01-01"},
		{q: "orders per day of the week", grain: semantic.GrainDayOfWeek},
		{q: "orders per day of week in 2025", grain: semantic.GrainDayOfWeek, from: "2025-01-01"},
		{q: "orders for each day of the week", grain: semantic.GrainDayOfWeek},
		{q: "revenue by week day", grain: semantic.GrainDayOfWeek},
		{q: "orders by days of the week", grain: semantic.GrainDayOfWeek},
		{q: "which day of the week has the most orders", grain: semantic.GrainDayOfWeek, limit: 1},
		{q: "what day of the week had the highest revenue in 2025", grain: semantic.GrainDayOfWeek, from: "2025-01-01", limit: 1},
		// Not the day of the week.
		{q: "weekly orders", grain: semantic.GrainWeek},
		{q: "orders per week", grain: semantic.GrainWeek},
		{q: "orders per day last month", grain: semantic.GrainDay, from: "2026-05-01"},
		{q: "orders by day last week", grain: semantic.GrainDay, from: "2026-06-22"},
		{q: "orders by day of week by month"}, // two grains: refused
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.grain == "" {
				if pl.Kind == KindMetric {
					t.Fatalf("answered %+v; want it not answered", pl.Query)
				}
				return
			}
			if pl.Kind != KindMetric {
				t.Fatalf("kind %s (%s); want a metric", pl.Kind, pl.Reason)
			}
			q := pl.Query
			if len(q.Dimensions) != 1 || q.Dimensions[0].Grain != tt.grain {
				t.Fatalf("dimensions %+v; want one by %s", q.Dimensions, tt.grain)
			}
			got := ""
			if q.TimeRange != nil {
				got = q.TimeRange.From
			}
			if got != tt.from {
				t.Errorf("period from %q; want %q", got, tt.from)
			}
			if q.Limit != tt.limit {
				t.Errorf("limit %d; want %d", q.Limit, tt.limit)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *q, quarry.DialectSQLite); err != nil {
				t.Errorf("compile: %v", err)
			}
			if tt.grain == semantic.GrainDayOfWeek && !strings.Contains(strings.Join(pl.Understood, "; "), "day_of_week") {
				t.Errorf("understood %v; want the day of the week named", pl.Understood)
			}
		})
	}
}
