package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestHighestTotal: "which month had the highest total amount of rent
// payments" ranks the months by the total; it took both the maximum
// payment and the total, month by month, every month listed (found from
// outside). "the lowest total" ranks the other way.
func TestHighestTotal(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "rent_payments", PrimaryKey: "id", TimeColumn: "paid_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}, {Name: "late_fee", Type: quarry.TypeFloat}, {Name: "paid_on", Type: quarry.TypeDate},
	}}}}
	p := New(m, nil)
	for q, dir := range map[string]bool{
		"which month in 2025 had the highest total amount of rent payments": true,
		"which month had the lowest total amount of rent payments in 2025":  false,
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Metrics) != 1 || len(pl.Query.Order) != 1 || pl.Query.Order[0].Desc != dir || pl.Query.Limit != 1 {
			t.Errorf("%q: %s %q %+v", q, pl.Kind, pl.Reason, pl.Query)
			continue
		}
		if mt := p.model(pl).Metric(pl.Query.Metrics[0]); mt == nil || !strings.HasPrefix(mt.Expr, "SUM(") {
			t.Errorf("%q: measure %+v", q, mt)
		}
	}
}
