package planner

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestFunctionWordValues: a word of grammar is a value only as the value
// is written ('IN' for India, grade 'A'; found from outside: "flights in
// 2025" filtered on nationality IN, "students in a grade level above 10"
// on grade A, at confidence 1.00).
func TestFunctionWordValues(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "passengers", Table: "passengers", PrimaryKey: "id", TimeColumn: "joined_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "nationality", Type: quarry.TypeText, Values: []string{"IN", "US", "GB"}}, {Name: "joined_on", Type: quarry.TypeDate}}},
			{Name: "enrollments", Table: "enrollments", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "grade", Type: quarry.TypeText, Values: []string{"A", "B", "C"}}, {Name: "level", Type: quarry.TypeInt}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q      string
		filter string // the one filter's value, "" for none
	}{
		{"how many passengers in 2025", ""},
		{"how many passengers with nationality IN", "IN"},
		{"passengers from IN", "IN"},
		{"how many enrollments with a level above 3", ""},
		{"how many enrollments with grade A", "A"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("kind %s: %s", pl.Kind, pl.Reason)
			}
			var vals []any
			for _, f := range pl.Query.Filters {
				if f.Op == semantic.OpEq {
					vals = append(vals, f.Values...)
				}
			}
			switch {
			case tt.filter == "" && len(vals) > 0:
				t.Errorf("filters on %v; want none", vals)
			case tt.filter != "" && (len(vals) != 1 || vals[0] != tt.filter):
				t.Errorf("filters on %v; want %s", vals, tt.filter)
			}
		})
	}
}
