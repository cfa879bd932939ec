package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCoverageTimeWords: 'day' and 'week' of a pass's type are no value
// asked for in "trips last week" or "which day of the week has the most
// trips", read by the query's period and grouping (found from outside,
// on a bike share: every such question refused). "day passes last week"
// still asks for the day passes, and a word of time with no period read
// is still the value.
func TestCoverageTimeWords(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "trips", PrimaryKey: "id", TimeColumn: "started_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "started_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "passes", PrimaryKey: "id", TimeColumn: "bought_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "bought_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "pass_type", Type: quarry.TypeText, Values: []string{"day", "week", "3day"}}}},
		},
		Metrics: []semantic.Metric{
			{Name: "trips", Entity: "trips", Expr: "COUNT(trips.id)"},
			{Name: "passes", Entity: "passes", Expr: "COUNT(passes.id)"},
		},
	}
	lastWeek := &semantic.TimeRange{From: "2026-06-22", To: "2026-06-29"}
	for _, tc := range []struct {
		question string
		q        *semantic.Query
		value    string // the value left unread, "" for none
	}{
		{"trips last week", &semantic.Query{Metrics: []string{"trips"}, TimeRange: lastWeek}, ""},
		{"which day of the week has the most trips", &semantic.Query{Metrics: []string{"trips"}, Dimensions: []semantic.DimRef{{Name: "day_of_week", Grain: semantic.GrainDayOfWeek}}, Order: []semantic.Order{{Field: "trips", Desc: true}}, Limit: 1}, ""},
		{"passes last week", &semantic.Query{Metrics: []string{"passes"}, TimeRange: lastWeek}, ""},
		{"day passes last week", &semantic.Query{Metrics: []string{"passes"}, TimeRange: lastWeek}, "'day'"},
		{"how many passes a day pass", &semantic.Query{Metrics: []string{"passes"}, TimeRange: lastWeek}, "'day'"},
		{"how many week passes", &semantic.Query{Metrics: []string{"passes"}}, "'week'"},
	} {
		failed := coverageFailures(tc.question, "2026-06-30", m, tc.q)
		for _, v := range []string{"'day'", "'week'"} {
			if got := strings.Contains(failed, v+" (a value of passes.pass_type) is not filtered on"); got != (v == tc.value) {
				t.Errorf("%q: %s left unread %v, want %v (%q)", tc.question, v, got, v == tc.value, failed)
			}
		}
	}
}
