package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestUpcomingOfPeriodAhead: "upcoming" and "coming up" of a period after
// the as-of day say no more than the period does (found from outside:
// "how many recitals are coming up next quarter" refused, "up" not
// understood); with no period they are not read past, which would count
// every row, those gone by too.
func TestUpcomingOfPeriodAhead(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{
		Name: "recitals", Table: "recitals", PrimaryKey: "id", TimeColumn: "held_on", Label: "title",
		Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "title", Type: quarry.TypeText},
			{Name: "held_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
		},
	}}}
	p := New(m, nil)
	for _, q := range []string{
		"how many recitals are coming up next quarter",
		"how many upcoming recitals next quarter",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.From != "2026-07-01" {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	for _, q := range []string{"how many upcoming recitals", "recitals coming up", "how many recitals were coming up last month"} {
		if pl := p.Plan(q, asOf); pl.Kind != KindUnanswered {
			t.Errorf("%q: %s %+v; want unanswered", q, pl.Kind, pl.Query)
		}
	}
}
