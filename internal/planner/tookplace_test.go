package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestTookPlace: a verb of taking part said of related rows keeps them
// to those done, and the period to theirs ("which guests took a private
// lesson this year": the lessons' year, not the guests' signup). Found
// from outside: "how many German guests took a freeride clinic" ignored
// "took" and counted every booked, cancelled and missed lesson, 38 for
// 30, at 1.00.
func TestTookPlace(t *testing.T) {
	m := tookModel()
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

// TestTookRows: a verb of taking part that ends the question after an
// auxiliary is said of the rows counted: "how many lessons has each
// guest taken" counts those completed (found from outside: "how many
// lessons did Anna Miller take" counted the cancelled ones, 15 for 10).
// "How many lessons" says no verb, and "cancelled lessons" a state of
// their own.
func TestTookRows(t *testing.T) {
	m := tookModel()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string]bool{
		"how many lessons has each guest taken":          true,
		"how many lessons did each guest take in 2025":   true,
		"how many lessons":                               false,
		"how many cancelled lessons did each guest take": false, // a state of its own
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		got := slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool {
			return f.Field == "lessons.status" && f.Op == semantic.OpEq && slices.Equal(f.Values, []any{"completed"})
		})
		if got != want {
			t.Errorf("%q: kept to completed lessons %v, want %v: %+v", q, got, want, pl.Query.Filters)
		}
	}
}

// tookModel: guests who take lessons of a few types.
func tookModel() *semantic.Model {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	return &semantic.Model{
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
}

// TestNeverMade: a verb of making said after a negation, before a table
// ("never booked a lesson", "have not booked a lesson"), is having none
// of that table's rows, whatever their status, as "never placed an
// order" is; the coverage check takes the verb for it (found from
// outside: "never booked" not understood, and "have not booked" read as
// no lesson whose status is 'booked', at 1.00). With no table after the
// verb the question is refused as before, never read as every guest.
func TestNeverMade(t *testing.T) {
	m := tookModel()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"how many guests never booked a lesson", "how many guests have not booked a lesson", "guests who have never booked any lessons"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		if !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool {
			return f.Op == semantic.OpNone && f.Field == "lessons" && len(f.Where) == 0
		}) {
			t.Errorf("%q: %+v; want guests with no lessons at all", q, pl.Query.Filters)
		}
		for _, c := range verify.Coverage(q, "2026-06-30", pl.Model(m), pl.Query) {
			if c.Status == verify.Fail {
				t.Errorf("%q: %s failed: %s", q, c.Name, c.Detail)
			}
		}
	}
	if pl := p.Plan("how many guests never booked", asOf); pl.Query != nil {
		t.Errorf("never booked, no object: %+v; want it refused", pl.Query)
	}
}
