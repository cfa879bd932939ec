package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRoleAsValue: "how many instructors do we have", instructor a role
// of staff through lessons.instructor_id and a value of staff.role, counts
// the staff whose role it is, every one and not only those lessons point
// at (found from outside: refused as rows lessons point at). A role no
// column of its table holds is still refused.
func TestRoleAsValue(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := semantic.WithRoles(&semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText},
				{Name: "role", Type: quarry.TypeText, Values: []string{"instructor", "game_master"}}}},
			{Name: "lessons", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("instructor_id"), id("game_master_id"), id("coordinator_id")}},
		},
		Relationships: []semantic.Relationship{
			{From: "lessons", FromColumn: "instructor_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "lessons", FromColumn: "game_master_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "lessons", FromColumn: "coordinator_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	})
	p := New(m, nil)
	for _, tc := range []struct{ q, value string }{
		{"how many instructors do we have", "instructor"},
		{"how many game masters", "game_master"},
	} {
		pl := p.Plan(tc.q, asOf)
		checkFilters(t, tc.q, pl, []string{"staff.role = " + tc.value}, nil)
	}
	if pl := p.Plan("how many coordinators", asOf); pl.Kind == KindMetric {
		t.Errorf("coordinators, no value of staff: %+v", pl.Query)
	}
}
