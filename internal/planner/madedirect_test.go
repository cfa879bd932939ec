package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMadeDirect: "customers who never booked a charter" is the charters'
// own reference to their customer, not a way round through the invoices
// that refer to both (found from outside, on a yacht-charter company:
// asked which). A verb that makes no row ("served") still asks.
func TestMadeDirect(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "staff", PrimaryKey: "id", Label: "full_name", Columns: []semantic.Column{id("id"), {Name: "full_name", Type: quarry.TypeText}}},
			{Name: "charters", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("customer_id"), id("booked_by_id"),
				{Name: "created_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleStart}}},
			{Name: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: []semantic.Column{id("id"), id("customer_id"), id("charter_id"),
				{Name: "issued_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{From: "charters", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{Name: "booked_by", From: "charters", FromColumn: "booked_by_id", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "invoices", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "invoices", FromColumn: "charter_id", To: "charters", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	for _, q := range []string{"customers who never booked a charter", "how many customers never booked a charter"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric && pl.Kind != KindRows {
			t.Errorf("%q: %s %q %v; want an answer", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		sqlHolds(t, p, m, q, "customers.id NOT IN (SELECT charters.customer_id FROM charters")
	}
	if pl := p.Plan("how many customers never served a charter", asOf); pl.Kind == KindMetric {
		t.Errorf("a verb that makes no row was read through one link: %+v", pl.Query)
	}
}
