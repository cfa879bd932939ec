package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRateByGroup: "no_show rate by clinic" and "cancellation rate by
// clinic" are the share of each clinic's appointments in that state; the
// first was read as the share of clinics with such an appointment, and
// both were refused as a share that could be of the total (found from
// outside, on a vet chain). Said with the table ("cancelled rate of
// appointments by clinic"), the same.
func TestRateByGroup(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "clinics", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "appointments", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("clinic_id"),
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "cancelled_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd},
				{Name: "status", Type: quarry.TypeText, Values: []string{"scheduled", "completed", "cancelled", "no_show"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "appointments", FromColumn: "clinic_id", To: "clinics", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for q, value := range map[string]string{
		"no_show rate by clinic":                   "no_show",
		"no-show rate by clinic this year":         "no_show",
		"cancellation rate by clinic":              "cancelled",
		"cancelled rate by clinic":                 "cancelled",
		"cancelled rate of appointments by clinic": "cancelled",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: %s %q; want the rate in each clinic", q, pl.Kind, pl.Reason)
			continue
		}
		sqlHolds(t, p, m, q, "SUM(CASE WHEN appointments.status = '"+value+"' THEN 1 ELSE 0 END) * 1.0 / NULLIF(COUNT(appointments.id), 0)", "GROUP BY clinics.id")
	}
}
