package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestLeftAsEnd: a person's leaving ("staff who left this year") is the
// date a table of persons ends on, where it has one (staff.terminated_on;
// found from outside: "left" not understood). A table of things, or one
// with two ends, is not read so.
func TestLeftAsEnd(t *testing.T) {
	staff := semantic.Entity{Name: "staff", PrimaryKey: "id", Label: "full_name", TimeColumn: "hired_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "full_name", Type: quarry.TypeText},
		{Name: "hired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
		{Name: "terminated_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}}
	m := &semantic.Model{Entities: []semantic.Entity{staff}}
	p := New(m, nil)
	for _, q := range []string{"staff who left this year", "how many staff left this year", "how many staff quit last year"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field != "staff.terminated_on" {
			t.Errorf("%q: %s %s %+v", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	// "left" read as another table's date (members.left_on) is still the
	// staff's own end where the question names staff (found from
	// outside: refused, "left" belongs to members).
	members := semantic.Entity{Name: "members", PrimaryKey: "id", Label: "company_name", TimeColumn: "joined_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "company_name", Type: quarry.TypeText},
		{Name: "joined_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart},
		{Name: "left_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}}
	both := New(&semantic.Model{Entities: []semantic.Entity{staff, members}}, nil)
	for q, want := range map[string]string{"how many staff left this year": "staff.terminated_on", "how many members left this year": "members.left_on"} {
		if pl := both.Plan(q, asOf); pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field != want {
			t.Errorf("%q: %s %s %+v; want the period on %s", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
	two := staff
	two.Columns = append(append([]semantic.Column{}, staff.Columns...), semantic.Column{Name: "suspended_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd})
	if pl := New(&semantic.Model{Entities: []semantic.Entity{two}}, nil).Plan("how many staff left this year", asOf); pl.Query != nil {
		t.Errorf("two ends, one taken: %+v", pl.Query)
	}
}
