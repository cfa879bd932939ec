package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// attendedModel: volunteers' shifts, each for one event; a shift is
// dated by its sign-up, an event by its day.
func attendedModel() *semantic.Model {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "events", PrimaryKey: "id", Label: "name", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText},
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "shifts", PrimaryKey: "id", TimeColumn: "signed_up_at", Columns: []semantic.Column{id("id"), id("event_id"),
				{Name: "status", Type: quarry.TypeText, Values: []string{"attended", "booked", "cancelled", "no_show"}},
				{Name: "signed_up_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}},
		},
		Relationships: []semantic.Relationship{{From: "shifts", FromColumn: "event_id", To: "events", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
}

// TestAttendedOnTheEventsDay: shifts picked by whether they were attended
// ("how many no-shows this year", "attended shifts by month") are dated
// by the day of the event each is for, which a no-show happens on, not
// by their sign-up (found from outside: 28 for 29, at 1.00), and the
// coverage check takes that date; shifts picked by another state
// ("booked") keep their own date.
func TestAttendedOnTheEventsDay(t *testing.T) {
	m := attendedModel()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, want := range map[string]string{
		"how many no-shows this year":             "events.scheduled_for",
		"how many no-show shifts in 2025":         "events.scheduled_for",
		"attended shifts by month in 2025":        "events.scheduled_for",
		"how many shifts were booked this year":   "shifts.signed_up_at",
		"how many shifts were cancelled in 2025":  "",
		"how many shifts were signed up for 2025": "",
	} {
		pl := p.Plan(q, asOf)
		if want == "" {
			continue // another reading's concern; listed to show they are not this one's
		}
		if pl.Query == nil || pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		got := ""
		if pl.Query.TimeRange != nil {
			got = pl.Query.TimeRange.Field
		}
		for _, d := range pl.Query.Dimensions {
			if d.Grain != "" && d.Name != want {
				t.Errorf("%q: grouped by %s; want %s", q, d.Name, want)
			}
		}
		if got != want && !(got == "" && want == "shifts.signed_up_at") {
			t.Errorf("%q: period on %q; want %s", q, got, want)
		}
		for _, c := range verify.Coverage(q, "2026-06-30", pl.Model(m), pl.Query) {
			if c.Status == verify.Fail {
				t.Errorf("%q: %s failed: %s", q, c.Name, c.Detail)
			}
		}
	}
	// Two tables of events a shift is for: which day is not quarry's to
	// pick, and the shift's own date stays.
	two := attendedModel()
	two.Entities = append(two.Entities, semantic.Entity{Name: "trainings", PrimaryKey: "id", TimeColumn: "held_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "held_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}})
	two.Entities[1].Columns = append(two.Entities[1].Columns, semantic.Column{Name: "training_id", Type: quarry.TypeInt})
	two.Relationships = append(two.Relationships, semantic.Relationship{From: "shifts", FromColumn: "training_id", To: "trainings", ToColumn: "id", Cardinality: semantic.ManyToOne})
	if err := two.Validate(); err != nil {
		t.Fatal(err)
	}
	if pl := New(two, nil).Plan("how many no-shows this year", asOf); pl.Query != nil && pl.Query.TimeRange != nil && !strings.HasPrefix(pl.Query.TimeRange.Field, "shifts.") && pl.Query.TimeRange.Field != "" {
		t.Errorf("two tables of events: period on %s; want the shifts' own", pl.Query.TimeRange.Field)
	}
}
