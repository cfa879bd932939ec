package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestNeverDated: "how many vouchers were never redeemed" is the vouchers
// whose redeemed_at is not set, as "not redeemed" reads it (found from
// outside: refused as unknown words); the participle is the rows' own
// date only, said right after them: "customers who never redeemed" is
// not read as an empty date of the vouchers.
func TestNeverDated(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}}},
			{Name: "vouchers", PrimaryKey: "id", Label: "code", TimeColumn: "sold_at", Columns: []semantic.Column{id("id"), id("purchaser_id"), {Name: "code", Type: quarry.TypeText},
				{Name: "sold_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "redeemed_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		},
		Relationships: []semantic.Relationship{{From: "vouchers", FromColumn: "purchaser_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	sqlHolds(t, p, m, "how many vouchers were never redeemed", "COUNT(vouchers.id)", "vouchers.redeemed_at IS NULL")
	sqlHolds(t, p, m, "vouchers never redeemed", "vouchers.redeemed_at IS NULL")
	if pl := p.Plan("how many customers never redeemed", asOf); pl.Query != nil && pl.Kind == KindMetric {
		for _, f := range pl.Query.Filters {
			if f.Field == "vouchers.redeemed_at" && f.Op == semantic.OpNull {
				t.Errorf("customers never redeemed: read as vouchers.redeemed_at not set: %+v", pl.Query)
			}
		}
	}
}
