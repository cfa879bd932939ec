package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestByRoleThatIsAlsoAValue: "procedures by surgeon", where surgeon is
// both a value of staff.role and the name of procedures' link to staff
// (surgeon_id), groups by that link, with no condition on the role
// (found from outside: refused, "it names a value of staff"). A value
// that names no link of the measured rows ("by nurse") is refused as
// before.
func TestByRoleThatIsAlsoAValue(t *testing.T) {
	m := roleValueModel()
	p := New(m, nil)
	for _, q := range []string{"procedures by surgeon in 2025", "number of procedures per surgeon", "procedures for each surgeon in 2025"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || !slices.ContainsFunc(pl.Query.Dimensions, func(d semantic.DimRef) bool { return d.Name == "staff.id" }) ||
			slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "staff.role" }) {
			t.Errorf("%q: %s %q %+v; want a count by staff.id, with no condition on staff.role", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("procedures by nurse", asOf); pl.Kind == KindMetric && pl.Query != nil && len(pl.Query.Dimensions) > 0 {
		t.Errorf("procedures by nurse: %+v; want a refusal, as no link is named nurse", pl.Query)
	}
}

func roleValueModel() *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
				{Name: "role", Type: quarry.TypeText, Values: []string{"nurse", "surgeon"}}}},
			{Name: "procedures", PrimaryKey: "id", TimeColumn: "performed_at", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "surgeon_id", Type: quarry.TypeInt},
				{Name: "performed_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{Name: "surgeon", From: "procedures", FromColumn: "surgeon_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
}
