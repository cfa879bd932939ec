package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestDeletedThroughNamed: "owners who never had an appointment" go to
// the appointments through their pets; a pet deleted since still had its
// appointments, so its deletion is no condition of the subquery (found
// from outside: 137 owners for 125). Its test flag still is, and so is
// the deletion of rows known by no name (an invoice's).
func TestDeletedThroughNamed(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "owners", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "pets", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), id("owner_id"), {Name: "name", Type: quarry.TypeText},
				{Name: "is_test", Type: quarry.TypeInt, Values: []string{"0", "1"}},
				{Name: "deleted_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEnd}}},
			{Name: "appointments", PrimaryKey: "id", TimeColumn: "scheduled_for", Columns: []semantic.Column{id("id"), id("pet_id"),
				{Name: "scheduled_for", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{From: "pets", FromColumn: "owner_id", To: "owners", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "appointments", FromColumn: "pet_id", To: "pets", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"owners who never had an appointment", "how many owners with an appointment"} {
		pl := New(m, nil).Plan(q, asOf)
		if pl.Query == nil {
			t.Fatalf("%q: %s %q; want an answer", q, pl.Kind, pl.Reason)
		}
		i := slices.IndexFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "appointments" })
		if i < 0 {
			t.Fatalf("%q: %+v; want a condition on the appointments", q, pl.Query.Filters)
		}
		where := pl.Query.Filters[i].Where
		if slices.ContainsFunc(where, func(w semantic.Filter) bool { return w.Field == "pets.deleted_at" }) {
			t.Errorf("%q: %+v; the pets deleted since still had their appointments", q, where)
		}
		if !slices.ContainsFunc(where, func(w semantic.Filter) bool { return w.Field == "pets.is_test" }) {
			t.Errorf("%q: %+v; want the test pets' appointments left out", q, where)
		}
	}
}
