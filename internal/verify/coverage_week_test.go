package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCoverageWeek: the days of the week a question keeps or splits are
// held to the query — neither a false failure ("weekday" read as the
// day-of-week grouping it also names) nor a false pass (all revenue for
// "weekend revenue").
func TestCoverageWeek(t *testing.T) {
	m := coverageModel()
	y2026 := &semantic.TimeRange{From: "2026-01-01", To: "2026-07-01"}
	weekend := semantic.Filter{Field: "part_of_week", Grain: semantic.GrainPartOfWeek, Op: semantic.OpEq, Values: []any{"weekend"}}
	weekday := semantic.Filter{Field: "part_of_week", Grain: semantic.GrainPartOfWeek, Op: semantic.OpEq, Values: []any{"weekday"}}
	split := []semantic.DimRef{{Name: "part_of_week", Grain: semantic.GrainPartOfWeek}}
	byDay := []semantic.DimRef{{Name: "day_of_week", Grain: semantic.GrainDayOfWeek}}
	monday := semantic.Filter{Field: "day_of_week", Grain: semantic.GrainDayOfWeek, Op: semantic.OpEq, Values: []any{"Monday"}}
	for _, tc := range []struct {
		question string
		q        semantic.Query
		fail     string // a word of the failing detail; "" when nothing fails
	}{
		{"weekend vs weekday revenue this year", semantic.Query{Metrics: []string{"revenue"}, Dimensions: split, TimeRange: y2026}, ""},
		{"orders by weekend or weekday", semantic.Query{Metrics: []string{"orders"}, Dimensions: split}, ""},
		{"weekend revenue this year", semantic.Query{Metrics: []string{"revenue"}, Filters: []semantic.Filter{weekend}, TimeRange: y2026}, ""},
		{"orders on a weekday", semantic.Query{Metrics: []string{"orders"}, Filters: []semantic.Filter{weekday}}, ""},
		{"revenue during the week", semantic.Query{Metrics: []string{"revenue"}, Filters: []semantic.Filter{weekday}}, ""},
		{"orders on Mondays", semantic.Query{Metrics: []string{"orders"}, Filters: []semantic.Filter{monday}}, ""},
		{"orders by weekday", semantic.Query{Metrics: []string{"orders"}, Dimensions: byDay}, ""},
		{"weekend revenue by weekday", semantic.Query{Metrics: []string{"revenue"}, Dimensions: byDay, Filters: []semantic.Filter{weekend}}, ""},
		// Wrong: the days dropped, or split where one part was asked.
		{"weekend revenue this year", semantic.Query{Metrics: []string{"revenue"}, TimeRange: y2026}, "weekends or weekdays"},
		{"orders on weekdays", semantic.Query{Metrics: []string{"orders"}}, "weekends or weekdays"},
		{"orders on Mondays", semantic.Query{Metrics: []string{"orders"}}, "Mondays"},
		{"weekend vs weekday revenue", semantic.Query{Metrics: []string{"revenue"}, Dimensions: byDay}, "day_of_week"},
		{"orders by weekday", semantic.Query{Metrics: []string{"orders"}, Dimensions: split}, "part_of_week"},
		{"revenue this year", semantic.Query{Metrics: []string{"revenue"}, Dimensions: split, TimeRange: y2026}, "part_of_week"},
	} {
		var failed []string
		for _, c := range Coverage(tc.question, "2026-06-30", m, &tc.q) {
			if c.Status == Fail {
				failed = append(failed, c.Detail)
			}
		}
		got := strings.Join(failed, "; ")
		if tc.fail == "" && got != "" {
			t.Errorf("%q %+v: failed %q; want it to pass", tc.question, tc.q, got)
		}
		if tc.fail != "" && !strings.Contains(got, tc.fail) {
			t.Errorf("%q %+v: failed %q; want a failure naming %q", tc.question, tc.q, got, tc.fail)
		}
	}
}
