package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTookPlace: a verb of taking part said of related rows keeps them
// to those done, and the period to theirs ("which guests took a private
// lesson this year": the lessons' year, not the guests' signup). Found
// from outside: "how many German guests took a freeride clinic" ignored
// "took" and counted every booked, cancelled and missed lesson, 38 for
// 30, at 1.00.
func TestTookPlace(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "guests", PrimaryKey: "id", Label: "full_name", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText},
				{Name: "country", Type: quarry.TypeText, Values: []string{"Germany", "Austria"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}},
			{Name: "lesson_types", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText, Values: []string{"Freeride clinic", "Private lesson"}}}},
			{Name: "lessons", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("guest_id"), id("lesson_type_id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"booked", "completed", "cancelled", "no_show"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart},
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{From: "lessons", FromColumn: "guest_id", To: "guests", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "lessons", FromColumn: "lesson_type_id", To: "lesson_types", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	related := func(q *semantic.Query) *semantic.Filter {
		for i, f := range q.Filters {
			if f.Op == semantic.OpSome && f.Field == "lesson_types" {
				return &q.Filters[i]
			}
		}
		return nil
	}
	has := func(f *semantic.Filter, field string, op semantic.Op) bool {
		return slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return w.Field == field && w.Op == op })
	}
	for _, c := range []struct {
		q      string
		done   bool // lessons kept to status completed
		period bool // the period on lessons.scheduled_for, none of the guests'
	}{
		{"how many German guests took a freeride clinic", true, false},
		{"which guests took a private lesson this year", true, true},
		{"how many guests took the freeride clinic last year", true, true},
		// No verb of taking part: any lesson of the kind, as before.
		{"how many guests with a freeride clinic", false, false},
		// Whose year is it, the new guests' or the lessons'? The guests'
		// own, as before.
		{"how many new guests took a freeride clinic this year", true, false},
	} {
		pl := p.Plan(c.q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q; want an answer", c.q, pl.Kind, pl.Reason)
			continue
		}
		f := related(pl.Query)
		if f == nil {
			t.Errorf("%q: no filter on having a lesson type: %+v", c.q, pl.Query)
			continue
		}
		if got := slices.ContainsFunc(f.Where, func(w semantic.Filter) bool {
			return w.Field == "lessons.status" && w.Op == semantic.OpEq && slices.Equal(w.Values, []any{"completed"})
		}); got != c.done {
			t.Errorf("%q: kept to completed lessons %v, want %v: %+v", c.q, got, c.done, f.Where)
		}
		if c.done && slices.Contains(pl.Ignored, "took") {
			t.Errorf("%q: \"took\" listed as ignored", c.q)
		}
		if got := has(f, "lessons.scheduled_for", semantic.OpGe) && pl.Query.TimeRange == nil; got != c.period {
			t.Errorf("%q: period on the lessons %v, want %v: %+v, %+v", c.q, got, c.period, f.Where, pl.Query.TimeRange)
		}
	}
}
