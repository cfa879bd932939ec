package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestByStateRows: "top 5 vets by completed appointments" ranks the vets
// by their appointments whose status is 'completed'; "completed" was read
// as the date completed_at to group by, and the question refused (found
// from outside, on a vet chain). A word after "by" that is no value of
// the table named next is not read so.
func TestByStateRows(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "appointments", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("vet_id"),
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "completed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd},
				{Name: "status", Type: quarry.TypeText, Values: []string{"scheduled", "completed", "cancelled"}}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "vet", From: "appointments", FromColumn: "vet_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"top 5 vets by completed appointments", "top 5 vets by completed appointments this year"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
			continue
		}
		sqlHolds(t, p, m, q, "COUNT(appointments.id)", "appointments.status = 'completed'", "LIMIT 5")
	}
	if pl := p.Plan("top 5 vets by urgent appointments", asOf); pl.Kind == KindMetric && strings.Contains(pl.Read, "number of urgent") {
		t.Errorf("a word that is no value of appointments was read as one: %q", pl.Read)
	}
}
