package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDateAggregates: the different dates of a column are not a number
// of events unless the question asks for dates, and the latest date in
// each period is no measure of the period; one latest date is.
func TestDateAggregates(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "employees", PrimaryKey: "id", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "hired_on", Type: quarry.TypeDate}, {Name: "department", Type: quarry.TypeText}}}},
		Metrics: []semantic.Metric{
			{Name: "hire_dates", Entity: "employees", Expr: "COUNT(DISTINCT employees.hired_on)"},
			{Name: "last_hire", Entity: "employees", Expr: "MAX(employees.hired_on)"},
			{Name: "departments", Entity: "employees", Expr: "COUNT(DISTINCT employees.department)"},
		},
	}
	byMonth := []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}}
	for _, tt := range []struct {
		question string
		q        *semantic.Query
		want     string // "" when the reading stands
	}{
		{"how many hires in 2024", &semantic.Query{Metrics: []string{"hire_dates"}}, "different dates"},
		{"how many different hire dates are there", &semantic.Query{Metrics: []string{"hire_dates"}}, ""},
		{"on how many days did we hire", &semantic.Query{Metrics: []string{"hire_dates"}}, ""},
		{"which month had the most hires", &semantic.Query{Metrics: []string{"last_hire"}, Dimensions: byMonth}, "latest employees.hired_on"},
		{"when was the latest hire", &semantic.Query{Metrics: []string{"last_hire"}}, ""},
		{"how many departments", &semantic.Query{Metrics: []string{"departments"}}, ""},
	} {
		got := DateAggregates(tt.question, m, tt.q)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.question, got, tt.want)
		}
	}
}
