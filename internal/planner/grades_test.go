package planner

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// gradesModel is students and their enrollments' letter grades, known or
// not.
func gradesModel(grades []string) *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "students", Table: "students", PrimaryKey: "student_id", Label: "full_name", Columns: []semantic.Column{
				{Name: "student_id", Type: quarry.TypeInt}, {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "enrollments", Table: "enrollments", PrimaryKey: "enrollment_id", Columns: []semantic.Column{
				{Name: "enrollment_id", Type: quarry.TypeInt}, {Name: "student_id", Type: quarry.TypeInt},
				{Name: "letter_grade", Type: quarry.TypeText, Values: grades}}},
		},
		Relationships: []semantic.Relationship{{Name: "student", From: "enrollments", FromColumn: "student_id", To: "students", ToColumn: "student_id", Cardinality: semantic.ManyToOne}},
	}
}

// TestLetterGrades: a grade with its sign ("B+") is that grade, not "B"
// (found from outside: 77 counted for 60), and a capital A inside a
// question no column is known to hold is not the article dropped (found
// from outside: "how many students got an A" counted every student, at
// full confidence); a question in title case takes its capitals as
// nothing.
func TestLetterGrades(t *testing.T) {
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	known := New(gradesModel([]string{"A", "A-", "B", "B+", "F"}), nil)
	for q, want := range map[string]string{
		"how many enrollments with grade B+": "B+",
		"how many enrollments with grade A-": "A-",
		"how many enrollments with grade B":  "B",
		"how many enrollments with an A":     "A",
	} {
		pl := known.Plan(q, asOf)
		var got []string
		if pl.Query != nil {
			for _, f := range pl.Query.Filters {
				for _, v := range f.Values {
					got = append(got, fmt.Sprint(v))
				}
			}
		}
		if pl.Kind != KindMetric || !slices.Equal(got, []string{want}) {
			t.Errorf("%q: %s %q, values %v; want %s", q, pl.Kind, pl.Reason, got, want)
		}
	}
	if pl := known.Plan("Show A List Of Students", asOf); pl.Kind != KindRows || len(pl.Query.Filters) > 0 {
		t.Errorf("title case: %s %q %+v; want every student", pl.Kind, pl.Reason, pl.Query)
	}
	unknown := New(gradesModel(nil), nil)
	for _, q := range []string{"how many students got an A", "how many enrollments with a B+"} {
		if pl := unknown.Plan(q, asOf); pl.Kind == KindMetric || pl.Kind == KindRows {
			t.Errorf("%q with no grade known: answered %+v; want it not understood", q, pl.Query)
		}
	}
}
