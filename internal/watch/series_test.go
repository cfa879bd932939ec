package watch

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// tableSource serves one table to a verified query's monitor.
type tableSource struct{ t *quarry.Table }

func (s tableSource) Metric(context.Context, string, semantic.Query) (*quarry.Table, string, error) {
	return s.t, "r-metric", nil
}

func (s tableSource) SQL(context.Context, string, string) (*quarry.Table, string, error) {
	return s.t, "r-sql", nil
}

// rows is a table of days from first, every step days, n of them, in
// segs segments.
func rows(first string, step, n, segs int) *quarry.Table {
	t := &quarry.Table{Columns: []quarry.Column{{Name: "period"}, {Name: "customer"}, {Name: "n"}}}
	d := day(first)
	for i := range n {
		for s := range segs {
			t.Rows = append(t.Rows, []any{d.AddDate(0, 0, i*step).Format(time.DateOnly), fmt.Sprintf("c%04d", s), int64(100)})
		}
	}
	return t
}

// TestSeriesRefused: a verified query's result that cannot be judged at
// the monitor's grain, or only in part, or in too many segments, is
// refused in one line rather than judged.
func TestSeriesRefused(t *testing.T) {
	truncated := rows("2024-01-01", 7, 100, 1)
	truncated.Truncated = true
	tests := []struct {
		name  string
		grain semantic.Grain
		tab   *quarry.Table
		want  string // in the message; "" when the series is judged
	}{
		{"daily rows under a month", semantic.GrainMonth, rows("2026-01-01", 1, 150, 1), "each period's first day at the month grain (the 1st of a month); row 2 holds 2026-01-02"},
		{"months under a month", semantic.GrainMonth, monthly(24), ""},
		{"daily rows under a week", semantic.GrainWeek, rows("2026-01-05", 1, 60, 1), "each period's first day at the week grain (a Monday); row 2 holds 2026-01-06"},
		{"Sundays under a week", semantic.GrainWeek, rows("2026-01-04", 7, 60, 1), "(a Monday); row 1 holds 2026-01-04"},
		{"Mondays under a week", semantic.GrainWeek, rows("2026-01-05", 7, 60, 1), ""},
		{"any day under a day", semantic.GrainDay, rows("2026-01-01", 1, 60, 1), ""},
		{"cut at the row cap", semantic.GrainWeek, truncated, "returned more rows than the row cap (max_rows) lets a monitor read"},
		{"too many segments", semantic.GrainWeek, rows("2026-01-05", 7, 3, MaxSegments+1), fmt.Sprintf("more than %d segments", MaxSegments)},
		{"as many segments as allowed", semantic.GrainWeek, rows("2026-01-05", 7, 3, MaxSegments), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Runner{Model: demoModel(), Source: tableSource{tt.tab}, Verified: map[string]string{"q": "SELECT 1"}}
			m := Monitor{Name: "m", Query: "q", Grain: tt.grain, Threshold: 4, Direction: Both}
			_, err := r.Check(context.Background(), m, time.Time{}, day("2026-07-01"))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want == "":
			case err == nil:
				t.Fatalf("judged, want a refusal saying %q", tt.want)
			case !strings.Contains(quarry.Message(err), tt.want) || strings.Contains(quarry.Message(err), "\n"):
				t.Fatalf("refusal %q, want one line saying %q", quarry.Message(err), tt.want)
			}
		})
	}
}

func monthly(n int) *quarry.Table {
	t := &quarry.Table{Columns: []quarry.Column{{Name: "month"}, {Name: "n"}}}
	for i := range n {
		t.Rows = append(t.Rows, []any{day("2024-01-01").AddDate(0, i, 0).Format(time.DateOnly), int64(100 + i)})
	}
	return t
}
