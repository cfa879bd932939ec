package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestBoughtAsSold: where rows are dated by their sale (tickets.sold_at)
// and nothing by ordering, a purchase is that sale seen from the buyer:
// "how many tickets did Olivia Smith buy" counts her tickets, and
// "tickets bought last month" puts the period on sold_at (found from
// outside: "buy" not understood on a cinema's database).
func TestBoughtAsSold(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "first_name", Type: quarry.TypeText, Values: []string{"Olivia", "Noah"}}, {Name: "last_name", Type: quarry.TypeText, Values: []string{"Smith", "Jones"}}}},
			{Name: "tickets", PrimaryKey: "id", TimeColumn: "sold_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "customer_id", Type: quarry.TypeInt}, {Name: "sold_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
		Relationships: []semantic.Relationship{{From: "tickets", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	sql := sqlHolds(t, p, m, "how many tickets did Olivia Smith buy", "COUNT(tickets.id)", "customers.first_name = 'Olivia'", "customers.last_name = 'Smith'")
	if sql == "" {
		t.Errorf("how many tickets did Olivia Smith buy: not answered")
	}
	if sql := sqlHolds(t, p, m, "tickets bought last month", "tickets.sold_at >= '2026-05-01'"); sql == "" {
		t.Errorf("tickets bought last month: not answered")
	}
	pl := p.Plan("how many tickets did Olivia Smith buy", asOf)
	if !strings.Contains(strings.Join(pl.Understood, "; "), `"bought" read as "sold"`) {
		t.Errorf("the reading does not say how buy was read: %q", pl.Understood)
	}
}
