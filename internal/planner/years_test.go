package planner

import (
	"strings"
	"testing"
	"time"

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

// TestNamedYearColumnOverTheRowsDate: rows with a date of their own (an
// account's signup) still take the years of a question that names their
// column of years: "accounts founded in 2023" listed the 34 that signed
// up in 2023 for the 3 founded then, at full confidence, and "before
// 2000" found none for 51 (found from outside). A span of whole years is
// both of its bounds on that column.
func TestNamedYearColumnOverTheRowsDate(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "accounts", Table: "accounts", PrimaryKey: "account_id", Label: "company_name", TimeColumn: "signed_up_at", Columns: []semantic.Column{
		{Name: "account_id", Type: quarry.TypeInt}, {Name: "company_name", Type: quarry.TypeText}, {Name: "year_founded", Type: quarry.TypeInt},
		{Name: "signed_up_at", Type: quarry.TypeTimestamp}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q    string
		want []string // in the SQL
	}{
		{"accounts founded in 2023", []string{"accounts.year_founded = 2023"}},
		{"accounts founded since 2015", []string{"accounts.year_founded >= 2015"}},
		{"accounts founded before 2000", []string{"accounts.year_founded < 2000"}},
		{"accounts with year founded before 2000", []string{"accounts.year_founded < 2000"}},
		{"how many accounts were founded before 2000", []string{"accounts.year_founded < 2000"}},
		{"how many accounts were founded between 1990 and 1999", []string{"accounts.year_founded >= 1990", "accounts.year_founded <= 1999"}},
		{"how many accounts signed up in 2023", []string{"accounts.signed_up_at >= '2023-01-01'"}},
		{"how many accounts in 2023", []string{"accounts.signed_up_at >= '2023-01-01'"}},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			if pl.Kind != KindMetric && pl.Kind != KindRows {
				t.Fatalf("kind %s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(c.SQL, w) {
					t.Errorf("SQL does not hold %q:\n%s", w, c.SQL)
				}
			}
			if strings.Contains(tt.want[0], "year_founded") && (strings.Contains(c.SQL, "signed_up_at >=") || strings.Contains(c.SQL, "signed_up_at <")) {
				t.Errorf("the years also went on the signup date:\n%s", c.SQL)
			}
		})
	}
}

// TestYearOfAnEvent: a column of years that names an event besides the
// year (birth_year) takes a year only where the question names that
// event ("born", the past of birth): "how many dogs did we see in 2025"
// counted the dogs born in 2025 at full confidence (found from outside).
// A yes/no column said before the rows it qualifies is a condition on
// them ("how many neutered dogs", refused before).
func TestYearOfAnEvent(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "pets", Table: "pets", PrimaryKey: "pet_id", Label: "pet_name", Columns: []semantic.Column{
		{Name: "pet_id", Type: quarry.TypeInt}, {Name: "pet_name", Type: quarry.TypeText},
		{Name: "species", Type: quarry.TypeText, Values: []string{"Cat", "Dog", "Rabbit"}},
		{Name: "birth_year", Type: quarry.TypeInt}, {Name: "neutered", Type: quarry.TypeInt, Values: []string{"0", "1"}}}}}}
	metricCases(t, m, []struct{ q, want string }{
		{"how many pets born before 2015", "pets.birth_year < 2015"},
		{"how many dogs were born in 2020", "pets.birth_year = 2020"},
		{"how many dogs did we see in 2025", ""},
		{"how many pets in 2025", ""},
		{"how many neutered dogs", "pets.neutered = 1"},
		{"number of neutered cats", "pets.species = 'Cat'"},
	})
}

// TestAgeFromDateOfBirth: an age in years on rows with a date of birth
// and no age column is a bound on the date of birth, as of the as-of day
// (found from outside: "employees older than 60" refused for want of an
// age column).
func TestAgeFromDateOfBirth(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "employees", Table: "employees", PrimaryKey: "emp_id", TimeColumn: "hire_date", Columns: []semantic.Column{
		{Name: "emp_id", Type: quarry.TypeInt}, {Name: "hire_date", Type: quarry.TypeDate},
		{Name: "birth_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleBirth}}}}}
	metricCases(t, m, []struct{ q, want string }{
		{"how many employees older than 60", "employees.birth_date <= '1965-06-30'"},
		{"how many employees younger than 30", "employees.birth_date > '1996-06-30'"},
	})
}
