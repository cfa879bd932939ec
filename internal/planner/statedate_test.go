package planner

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPeriodOnStateDate: "loans returned last month" dates the loans by
// the one date that says when a loan is returned; with two such dates, or
// none, the period stays on the table's own date (and the checks refuse
// it there).
func TestPeriodOnStateDate(t *testing.T) {
	model := func(extra ...semantic.Column) *semantic.Model {
		cols := append([]semantic.Column{
			{Name: "id", Type: quarry.TypeInt},
			{Name: "status", Type: quarry.TypeText, Values: []string{"open", "returned", "lost"}},
			{Name: "borrowed_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
		}, extra...)
		return &semantic.Model{Entities: []semantic.Entity{{Name: "loans", PrimaryKey: "id", TimeColumn: "borrowed_on", Columns: cols}}}
	}
	at := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	back := semantic.Column{Name: "closed_on", Type: quarry.TypeDate, Description: "The day the book was returned or written off."}
	due := semantic.Column{Name: "due_on", Type: quarry.TypeDate, Description: "The day the book must be returned by."}
	for _, tt := range []struct {
		name  string
		m     *semantic.Model
		q     string
		field string
	}{
		{"one date names the state", model(back), "how many loans were returned last month", "loans.closed_on"},
		{"its synonym names it", model(semantic.Column{Name: "ended", Type: quarry.TypeDate, Synonyms: []string{"lost on"}}), "how many lost loans last month", "loans.ended"},
		{"two dates name it", model(back, due), "how many loans were returned last month", ""},
		{"no date names it", model(semantic.Column{Name: "due_on", Type: quarry.TypeDate}), "how many loans were returned last month", ""},
		{"a state no date names", model(back), "how many open loans last month", ""},
	} {
		pl := New(tt.m, nil).Plan(tt.q, at)
		if pl.Query == nil || pl.Query.TimeRange == nil {
			t.Errorf("%s: %s %q", tt.name, pl.Kind, pl.Reason)
			continue
		}
		if pl.Query.TimeRange.Field != tt.field {
			t.Errorf("%s: period on %q, want %q", tt.name, pl.Query.TimeRange.Field, tt.field)
		}
	}
}
