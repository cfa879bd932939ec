package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestRowValue: a row's "value" is its table's one amount of money
// (found from outside: "average booking value by channel last year" and
// "total value of open invoices" refused, "value" not understood); a
// table with no amount has no value to read.
func TestRowValue(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "bookings", Table: "bookings", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "seats", Type: quarry.TypeInt},
			{Name: "total_cents", Type: quarry.TypeInt, Unit: "cents"},
			{Name: "channel", Type: quarry.TypeText, Values: []string{"online", "phone"}},
			{Name: "created_at", Type: quarry.TypeTimestamp},
		}},
		{Name: "invoices", Table: "invoices", PrimaryKey: "id", TimeColumn: "issued_at", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents"},
			{Name: "status", Type: quarry.TypeText, Values: []string{"open", "paid"}},
			{Name: "issued_at", Type: quarry.TypeTimestamp},
		}},
		{Name: "patrons", Table: "patrons", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText},
		}},
	}}
	p := New(m, nil)
	for q, expr := range map[string]string{
		"average booking value by channel last year": "AVG(bookings.total_cents)",
		"total value of open invoices":               "SUM(invoices.amount_cents)",
		"average value of bookings last month":       "AVG(bookings.total_cents)",
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Metrics) != 1 {
			t.Errorf("%q: %s %q %v", q, pl.Kind, pl.Reason, pl.Unknown)
			continue
		}
		mt := pl.Model(m).Metric(pl.Query.Metrics[0])
		if mt == nil || !strings.EqualFold(strings.ReplaceAll(mt.Expr, " ", ""), expr) {
			t.Errorf("%q: metric %+v; want %s", q, mt, expr)
		}
	}
	if pl := p.Plan("average patron value", asOf); pl.Kind != KindUnanswered {
		t.Errorf("a table with no amount: %s %+v", pl.Kind, pl.Query)
	}
}
