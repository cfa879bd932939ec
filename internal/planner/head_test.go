package planner

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestAmountByItsHead: a word that names only what an amount is of
// ("deliveries" of delivery_fee_cents) is never read as its total
// (found from outside: "deliveries by courier" added up the delivery
// fees, at 1.00); the amount's own word is ("delivery fees", "tips" of
// tip_cents, an amount in cents being money).
func TestAmountByItsHead(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "couriers", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "placed_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "courier_id", Type: quarry.TypeInt}, {Name: "placed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "delivery_fee_cents", Type: quarry.TypeInt, Unit: "cents"}, {Name: "tip_cents", Type: quarry.TypeInt, Unit: "cents"}}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "courier_id", To: "couriers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	if pl := p.Plan("deliveries by courier last month", asOf); pl.Query != nil && len(pl.Query.Metrics) > 0 && pl.Query.Metrics[0] == "sum_orders_delivery_fee_cents" {
		t.Errorf("deliveries by courier: the delivery fees added up")
	}
	sqlHolds(t, p, m, "delivery fees by courier last month", "SUM(orders.delivery_fee_cents)")
	sqlHolds(t, p, m, "tips by month this year", "SUM(orders.tip_cents)")
	for said, want := range map[string]bool{"deliveries": false, "delivery fees": true, "fees": true, "tips": true, "cost": true} {
		col := map[string]string{"tips": "tip_cents", "cost": "cost_amt"}[said]
		if col == "" {
			col = "delivery_fee_cents"
		}
		if got := namesHead(said, col); got != want {
			t.Errorf("namesHead(%q, %q) = %v, want %v", said, col, got, want)
		}
	}
}

// TestMedianOfAnAmountInCents: the median of an amount named alone with
// a period is of each row's value, not of its total (an amount in cents
// read as its total broke "median tip last month").
func TestMedianOfAnAmountInCents(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "orders", PrimaryKey: "id", TimeColumn: "placed_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "placed_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent},
				{Name: "tip_cents", Type: quarry.TypeInt, Unit: "cents", Synonyms: []string{"tip"}}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	if pl := p.Plan("median tip last month", asOf); pl.Kind != KindMetric || pl.Query.Percentile != 50 {
		t.Errorf("median tip last month: %s %s", pl.Kind, pl.Reason)
	}
	sqlHolds(t, p, m, "tips by month this year", "SUM(orders.tip_cents)")
}
