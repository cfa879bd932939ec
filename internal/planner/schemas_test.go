package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// schemasModel is what learn makes of two schemas with a customers table
// each: public.customers is "customers", crm.customers "crm_customers".
func schemasModel() *semantic.Model {
	cols := func() []semantic.Column {
		return []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "region", Type: quarry.TypeText}}
	}
	return &semantic.Model{Entities: []semantic.Entity{
		{Name: "customers", Table: "customers", PrimaryKey: "id", Label: "name", Columns: cols()},
		{Name: "crm_customers", Schema: "crm", Table: "customers", PrimaryKey: "id", Label: "name", Columns: cols()},
		{Name: "sales_orders", Schema: "sales", Table: "orders", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "total", Type: quarry.TypeFloat}}},
	}}
}

// TestSameTableInTwoSchemas: a table name two schemas share is asked
// about, never answered from one of them; the schema's own name, or a
// table only one schema has, is answered.
func TestSameTableInTwoSchemas(t *testing.T) {
	p := New(schemasModel(), nil)
	for q, want := range map[string]Kind{
		"how many customers":              KindClarify,
		"customers by region":             KindClarify,
		"how many crm customers":          KindMetric,
		"how many crm_customers":          KindMetric,
		"number of orders":                KindMetric, // sales.orders alone
		"list the names of the customers": KindClarify,
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != want {
			t.Errorf("%q: %s (%s %v), want %s", q, pl.Kind, pl.Reason, pl.Understood, want)
		}
		if want == KindClarify && len(pl.Options) < 2 {
			t.Errorf("%q: options %v", q, pl.Options)
		}
	}
}
