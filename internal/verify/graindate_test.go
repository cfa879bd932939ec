package verify

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestGrainDate: a period on completed_at cut by the months of the rows'
// own date (scheduled_for) fails; both on one date, a period on the own
// date, or a grain without a named period date do not.
func TestGrainDate(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "work_orders", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "scheduled_for", Type: quarry.TypeDate}, {Name: "completed_at", Type: quarry.TypeDate}}}},
		Metrics: []semantic.Metric{{Name: "work_orders", Entity: "work_orders", Expr: "COUNT(work_orders.id)"}},
	}
	in := func(field string) *semantic.TimeRange {
		return &semantic.TimeRange{Field: field, From: "2025-01-01", To: "2026-01-01"}
	}
	month := func(name string) []semantic.DimRef {
		return []semantic.DimRef{{Name: name, Grain: semantic.GrainMonth}}
	}
	for _, tt := range []struct {
		name string
		q    semantic.Query
		want bool
	}{
		{"period on completed_at, months of the own date", semantic.Query{Metrics: []string{"work_orders"}, TimeRange: in("work_orders.completed_at"), Dimensions: month("month")}, true},
		{"period on completed_at, months of scheduled_for named", semantic.Query{Metrics: []string{"work_orders"}, TimeRange: in("work_orders.completed_at"), Dimensions: month("work_orders.scheduled_for")}, true},
		{"both on completed_at", semantic.Query{Metrics: []string{"work_orders"}, TimeRange: in("work_orders.completed_at"), Dimensions: month("work_orders.completed_at")}, false},
		{"both on the own date", semantic.Query{Metrics: []string{"work_orders"}, TimeRange: in("work_orders.scheduled_for"), Dimensions: month("month")}, false},
		{"period on the default date", semantic.Query{Metrics: []string{"work_orders"}, TimeRange: &semantic.TimeRange{From: "2025-01-01"}, Dimensions: month("month")}, false},
		{"no grain", semantic.Query{Metrics: []string{"work_orders"}, TimeRange: in("work_orders.completed_at")}, false},
	} {
		if got := GrainDate(m, &tt.q); (got != "") != tt.want {
			t.Errorf("%s: %q, want said %v", tt.name, got, tt.want)
		}
	}
}
