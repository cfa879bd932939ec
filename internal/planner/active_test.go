package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestActiveAsNotEnded: "active" said of rows whose table has no state
// called active but one date that ends them is those not ended ("how many
// active subscriptions": ended_on empty; found from outside: refused as a
// word quarry did not know). Of a table with no such date it is refused,
// never read past; "the most active" asks how much rows did, refused too;
// and a measure or a value named active keeps its meaning.
func TestActiveAsNotEnded(t *testing.T) {
	id := semantic.Column{Name: "id", Type: quarry.TypeInt}
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "subscriptions", PrimaryKey: "id", TimeColumn: "started_on", Columns: []semantic.Column{id, {Name: "seats", Type: quarry.TypeInt},
			{Name: "started_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "ended_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		{Name: "products", PrimaryKey: "id", Columns: []semantic.Column{id, {Name: "price", Type: quarry.TypeFloat}}},
	}}
	p := New(m, nil)
	for _, q := range []string{"how many active subscriptions", "total seats on active subscriptions", "how many active subscriptions do we have"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "subscriptions.ended_on" || pl.Query.Filters[0].Op != semantic.OpNull {
			t.Errorf("%q: %s %q %+v; want ended_on empty", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	for _, q := range []string{"how many active products", "the most active subscriptions", "subscriptions active in 2025"} {
		if pl := p.Plan(q, asOf); pl.Query != nil {
			t.Errorf("%q: %s %+v; want refused", q, pl.Kind, pl.Query)
		}
	}
	members := &semantic.Model{Entities: []semantic.Entity{{Name: "members", PrimaryKey: "id", Columns: []semantic.Column{id,
		{Name: "status", Type: quarry.TypeText, Values: []string{"active", "lapsed"}}, {Name: "left_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}}}}
	// A value named active keeps its meaning, read with the date that
	// ends the rows (inForce).
	if pl := New(members, nil).Plan("how many active members", asOf); pl.Query == nil || len(pl.Query.Filters) != 2 || pl.Query.Filters[0].Field != "members.status" ||
		pl.Query.Filters[1].Field != "members.left_on" || pl.Query.Filters[1].Op != semantic.OpGe || !pl.Query.Filters[1].OrNull {
		t.Errorf("active members: %s %q %+v; want status = active, left_on empty or not before the day", pl.Kind, pl.Reason, pl.Query)
	}
}
