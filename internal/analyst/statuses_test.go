package analyst

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestStatusCheck: a total of gifts of every status warns, naming the
// statuses of money never taken in; a total kept to some statuses, by the
// query or the measure, or grouped by status, does not; nor a count.
func TestStatusCheck(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{{Name: "donations", Table: "donations", PrimaryKey: "donation_id", Columns: []semantic.Column{
			{Name: "donation_id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat},
			{Name: "gift_status", Type: quarry.TypeText, Values: []string{"Failed", "Pending", "Received", "Refunded"}}}}},
		Metrics: []semantic.Metric{
			{Name: "sum_donations_amount", Entity: "donations", Expr: "SUM(donations.amount)", Description: "total amount of donations"},
			{Name: "received", Entity: "donations", Expr: "SUM(donations.amount)", Filters: []string{"donations.gift_status = 'Received'"}},
			{Name: "count_donations", Entity: "donations", Expr: "COUNT(donations.donation_id)"},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	a := &Analyst{}
	c := a.StatusCheck(m, &semantic.Query{Metrics: []string{"sum_donations_amount"}})
	if c.Status != verify.Warn || !strings.Contains(c.Detail, "'Failed', 'Pending' or 'Refunded'") {
		t.Errorf("a total of every status: %+v", c)
	}
	for name, q := range map[string]*semantic.Query{
		"kept by the query":   {Metrics: []string{"sum_donations_amount"}, Filters: []semantic.Filter{{Field: "donations.gift_status", Op: semantic.OpEq, Values: []any{"Received"}}}},
		"kept by the measure": {Metrics: []string{"received"}},
		"grouped by status":   {Metrics: []string{"sum_donations_amount"}, Dimensions: []semantic.DimRef{{Name: "donations.gift_status"}}},
		"a count":             {Metrics: []string{"count_donations"}},
	} {
		if c := a.StatusCheck(m, q); c.Name != "" {
			t.Errorf("%s: %+v", name, c)
		}
	}
}
