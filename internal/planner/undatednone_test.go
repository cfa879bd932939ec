package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestUndatedWithNoneInPeriod: "courses with no enrollments this year",
// where courses have no date, puts the period on the enrollments that
// must be missing; it was refused, "courses has no date column" (found
// from outside, on a music school).
func TestUndatedWithNoneInPeriod(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "courses", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "enrollments", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("course_id"),
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}},
		},
		Relationships: []semantic.Relationship{
			{From: "enrollments", FromColumn: "course_id", To: "courses", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"courses with no enrollments this year", "how many courses had no enrollments this year"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric && pl.Kind != KindRows {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		sqlHolds(t, p, m, q, " NOT IN (SELECT enrollments.", "enrollments.created_at >= '2026-01-01'")
	}
}
