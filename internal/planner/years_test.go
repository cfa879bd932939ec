package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestYearColumnRanges: with no date of their own, rows with a number
// column of years take "before", "after" and "since" a year on it, as
// they take "in 1980" (found on Spider: "cars produced before 1980" was
// refused for want of a date column).
func TestYearColumnRanges(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "cars", Table: "cars", PrimaryKey: "id", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "model", Type: quarry.TypeText}, {Name: "year", Type: quarry.TypeInt}, {Name: "weight", Type: quarry.TypeInt}}}}}
	metricCases(t, m, []struct{ q, want string }{
		{"how many cars were produced in 1980", "cars.year = 1980"},
		{"how many cars were made before 1980", "cars.year < 1980"},
		{"how many cars built after 1980", "cars.year > 1980"},
		{"how many cars since 1980", "cars.year >= 1980"},
		{"average weight of cars manufactured after 1975", "cars.year > 1975"},
		// Found from outside: "in or after 1980" was > 1980, "in or
		// before 1972" < 1972, "by 1972" = 1972.
		{"how many cars made in or after 1980", "cars.year >= 1980"},
		{"how many cars made in or before 1972", "cars.year <= 1972"},
		{"how many cars until 1972", "cars.year <= 1972"},
		{"how many cars prior to 1975", "cars.year < 1975"},
		{"how many cars made by 1972", ""},
	})
}
