package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestWeekPart: weekends and weekdays as a grouping ("weekend vs weekday
// revenue": two rows) or a filter on the measure's date, or the date the
// question names ("tickets opened on a weekday"); the plural of a day
// ("on Mondays") as a filter by the day of the week; with a period and
// other groupings. "weekday" after by/per/which stays the day of the
// week, "week" the week, and "last weekend" (one weekend) is refused, never
// read as every weekend.
func TestWeekPart(t *testing.T) {
	p := New(testModel(), nil)
	type want struct {
		dims    []semantic.DimRef
		filters []semantic.Filter
		from    string
		refuse  string // a part of the reason, when refused
	}
	weekend := semantic.Filter{Field: "part_of_week", Grain: semantic.GrainPartOfWeek, Op: semantic.OpEq, Values: []any{"weekend"}}
	weekday := semantic.Filter{Field: "part_of_week", Grain: semantic.GrainPartOfWeek, Op: semantic.OpEq, Values: []any{"weekday"}}
	split := semantic.DimRef{Name: "part_of_week", Grain: semantic.GrainPartOfWeek}
	for _, tt := range []struct {
		q string
		w want
	}{
		{"weekend vs weekday revenue this year", want{dims: []semantic.DimRef{split}, from: "2026-01-01"}},
		{"revenue weekends vs weekdays", want{dims: []semantic.DimRef{split}}},
		{"orders by weekend or weekday", want{dims: []semantic.DimRef{split}}},
		{"revenue weekdays compared to weekends in 2025", want{dims: []semantic.DimRef{split}, from: "2025-01-01"}},
		{"weekend revenue this year", want{filters: []semantic.Filter{weekend}, from: "2026-01-01"}},
		{"orders on weekends last month", want{filters: []semantic.Filter{weekend}, from: "2026-05-01"}},
		{"orders on weekends", want{filters: []semantic.Filter{weekend}}},
		{"orders on weekdays", want{filters: []semantic.Filter{weekday}}},
		{"orders on a weekday", want{filters: []semantic.Filter{weekday}}},
		{"revenue during the week this year", want{filters: []semantic.Filter{weekday}, from: "2026-01-01"}},
		{"weekend revenue by channel", want{dims: []semantic.DimRef{{Name: "channel"}}, filters: []semantic.Filter{weekend}}},
		{"revenue on weekdays by channel", want{dims: []semantic.DimRef{{Name: "channel"}}, filters: []semantic.Filter{weekday}}},
		{"weekend revenue by month this year", want{dims: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}}, filters: []semantic.Filter{weekend}, from: "2026-01-01"}},
		{"weekend revenue by weekday", want{dims: []semantic.DimRef{{Name: "day_of_week", Grain: semantic.GrainDayOfWeek}}, filters: []semantic.Filter{weekend}}},
		{"orders by weekday or weekend", want{dims: []semantic.DimRef{split}}},
		{"orders on Mondays", want{filters: []semantic.Filter{{Field: "day_of_week", Grain: semantic.GrainDayOfWeek, Op: semantic.OpEq, Values: []any{"Monday"}}}}},
		{"revenue on Saturdays last quarter", want{filters: []semantic.Filter{{Field: "day_of_week", Grain: semantic.GrainDayOfWeek, Op: semantic.OpEq, Values: []any{"Saturday"}}}, from: "2026-01-01"}},
		{"orders on Saturdays and Sundays", want{filters: []semantic.Filter{{Field: "day_of_week", Grain: semantic.GrainDayOfWeek, Op: semantic.OpIn, Values: []any{"Saturday", "Sunday"}}}}},
		// Refused: one weekend, or one of two readings.
		{"orders last weekend", want{refuse: "one weekend"}},
		{"revenue this weekend", want{refuse: "one weekend"}},
		{"orders over the weekend", want{refuse: "one weekend"}},
		{"orders on the weekend", want{refuse: "one weekend or every weekend"}},
		{"revenue on weekends and on Mondays", want{refuse: "both days and parts of the week"}},
		{"weekend vs weekday revenue by day of week", want{refuse: "two cycles"}},
		{"weekends", want{refuse: "no measure"}},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if tt.w.refuse != "" {
				if pl.Kind == KindMetric {
					t.Fatalf("answered %+v; want it refused", pl.Query)
				}
				if !strings.Contains(pl.Reason, tt.w.refuse) {
					t.Errorf("reason %q; want one saying %q", pl.Reason, tt.w.refuse)
				}
				return
			}
			if pl.Kind != KindMetric {
				t.Fatalf("kind %s (%s; unknown %v)", pl.Kind, pl.Reason, pl.Unknown)
			}
			q := pl.Query
			if diff := cmp.Diff(tt.w.dims, q.Dimensions); diff != "" {
				t.Errorf("dimensions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.w.filters, q.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			got := ""
			if q.TimeRange != nil {
				got = q.TimeRange.From
			}
			if got != tt.w.from {
				t.Errorf("period from %q; want %q", got, tt.w.from)
			}
			if _, err := semantic.Compile(pl.Model(testModel()), *q, quarry.DialectSQLite); err != nil {
				t.Errorf("compile: %v", err)
			}
			if u := strings.Join(pl.Understood, "; "); !strings.Contains(u, "part_of_week") && !strings.Contains(u, "day_of_week") {
				t.Errorf("understood %v; want the days named", pl.Understood)
			}
		})
	}
}

// TestWeekPartUnchanged: questions that name the week or the day of the
// week in other ways keep the readings they had.
func TestWeekPartUnchanged(t *testing.T) {
	p := New(testModel(), nil)
	for _, tt := range []struct {
		q     string
		grain semantic.Grain
	}{
		{"revenue by week", semantic.GrainWeek},
		{"orders by weekday", semantic.GrainDayOfWeek},
		{"revenue per weekday last year", semantic.GrainDayOfWeek},
		{"which weekday has the most orders", semantic.GrainDayOfWeek},
		{"weekly orders", semantic.GrainWeek},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if pl.Kind != KindMetric {
				t.Fatalf("kind %s (%s)", pl.Kind, pl.Reason)
			}
			if len(pl.Query.Dimensions) != 1 || pl.Query.Dimensions[0].Grain != tt.grain || len(pl.Query.Filters) != 0 {
				t.Errorf("dimensions %+v, filters %+v; want one by %s and no filter", pl.Query.Dimensions, pl.Query.Filters, tt.grain)
			}
		})
	}
	pl := p.Plan("orders this week vs last week", asOf)
	if pl.Kind != KindMetric || len(pl.Query.Compare) != 2 || len(pl.Query.Filters) != 0 || len(pl.Query.Dimensions) != 0 {
		t.Errorf("this week vs last week: %s %+v", pl.Kind, pl.Query)
	}
}

// TestWeekPartInAName: "weekend" inside a value the knowledge holds (a
// discount code "WEEKEND SALE") is that value, not the days; "weekend"
// that is a whole value too ("Weekend", a plan) is refused as two
// meanings, never guessed.
func TestWeekPartInAName(t *testing.T) {
	m := testModel()
	p := New(m, nil)
	pl := p.PlanValues("orders with discount code weekend sale", asOf, []Value{{Entity: "orders", Column: "discount_code", Value: "WEEKEND SALE"}})
	if pl.Kind != KindMetric {
		t.Fatalf("kind %s (%s)", pl.Kind, pl.Reason)
	}
	want := []semantic.Filter{{Field: "orders.discount_code", Op: semantic.OpEq, Values: []any{"WEEKEND SALE"}}}
	if diff := cmp.Diff(want, pl.Query.Filters); diff != "" {
		t.Errorf("filters (-want +got):\n%s", diff)
	}
	pl = p.PlanValues("orders on the weekend plan", asOf, []Value{{Entity: "plans", Column: "name", Value: "Weekend"}})
	if pl.Kind == KindMetric && keepsDays(pl.Query.Filters) {
		t.Errorf("answered %+v; want the value, or a refusal, never weekends", pl.Query)
	}
	pl = p.PlanValues("weekend revenue", asOf, []Value{{Entity: "plans", Column: "name", Value: "Weekend"}})
	if pl.Kind == KindMetric || !strings.Contains(pl.Reason, "quarry does not guess") {
		t.Errorf("%s %+v (%s); want it refused as two meanings", pl.Kind, pl.Query, pl.Reason)
	}
}

// keepsDays reports whether filters keep days of the week.
func keepsDays(fs []semantic.Filter) bool {
	for _, f := range fs {
		if f.Grain != "" {
			return true
		}
	}
	return false
}
