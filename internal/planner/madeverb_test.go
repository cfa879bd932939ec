package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMadeInPeriod: a status that is a verb of making, said as the verb
// with a period, is the rows made then by the day each was entered,
// whatever their status now (found from outside: "how many lessons were
// booked last month" 0 for 210 at 1.00, read as lessons still 'booked'
// whose day fell in May; "guests who booked more than 5 lessons" 17 for
// 27, read as guests with one lesson still booked). "Booked for next
// month" is still the lessons booked, by their day.
func TestMadeInPeriod(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "guests", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "lessons", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("guest_id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"booked", "completed", "cancelled"}},
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart},
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "lessons", FromColumn: "guest_id", To: "guests", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	statusOf := func(q *semantic.Query) bool {
		for _, f := range q.Filters {
			if f.Field == "lessons.status" || f.Op == semantic.OpSome {
				return true
			}
		}
		return false
	}
	pl := p.Plan("how many lessons were booked last month", asOf)
	if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field != "lessons.created_at" || statusOf(pl.Query) {
		t.Errorf("lessons booked last month: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	pl = p.Plan("how many lessons are booked for next month", asOf)
	if pl.Query == nil || !statusOf(pl.Query) || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field == "lessons.created_at" {
		t.Errorf("lessons booked for next month: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	pl = p.Plan("how many guests booked more than 5 lessons", asOf)
	if pl.Query == nil || statusOf(pl.Query) {
		t.Errorf("guests who booked more than 5 lessons: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}
