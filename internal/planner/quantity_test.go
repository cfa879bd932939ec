package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestQuantityByGroup: units that rows moved, named with no aggregate by
// groups or a period, are their total, as money is (found from outside:
// "order lines quantity by product" refused); a stock level is not
// added up across snapshots.
func TestQuantityByGroup(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "products", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "order_lines", PrimaryKey: "id", TimeColumn: "ordered_on", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "product_id", Type: quarry.TypeInt}, {Name: "quantity", Type: quarry.TypeInt},
				{Name: "ordered_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
			{Name: "inventory_snapshots", PrimaryKey: "id", TimeColumn: "taken_on", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "warehouse", Type: quarry.TypeText, Values: []string{"north", "south"}}, {Name: "units", Type: quarry.TypeInt},
				{Name: "taken_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{
			{From: "order_lines", FromColumn: "product_id", To: "products", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"order lines quantity by product", "order lines quantity in 2025", "quantity by product"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 || !strings.HasPrefix(pl.over(p.m).Metric(pl.Query.Metrics[0]).Expr, "SUM(order_lines.quantity)") {
			t.Errorf("%q: %s %q %+v; want the total of order_lines.quantity", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	for _, q := range []string{"inventory snapshots units by warehouse", "units by warehouse in 2025"} {
		pl := p.Plan(q, asOf)
		if pl.Kind == KindMetric && len(pl.Query.Metrics) == 1 && strings.HasPrefix(pl.over(p.m).Metric(pl.Query.Metrics[0]).Expr, "SUM(") {
			t.Errorf("%q: %+v; want no total of a stock level", q, pl.Query)
		}
	}
}
