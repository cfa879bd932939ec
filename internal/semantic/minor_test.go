package semantic

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestOutFormat: a total, average, minimum or maximum of an amount held in
// cents is shown as money divided by 100; a count of it, a ratio, a share
// or a measure whose author chose a percent is not.
func TestOutFormat(t *testing.T) {
	m := &Model{Entities: []Entity{
		{Name: "payments", PrimaryKey: "id", Columns: []Column{{Name: "id"}, {Name: "amount_cents"}, {Name: "fee", Unit: "cents"}, {Name: "tip_pence"}, {Name: "amount"}}},
	}}
	for _, tc := range []struct {
		mt   Metric
		want string
	}{
		{Metric{Expr: "SUM(payments.amount_cents)", Format: "number"}, FormatCents},
		{Metric{Expr: "avg( payments.amount_cents )"}, FormatCents},
		{Metric{Expr: "MAX(payments.fee)", Format: "currency"}, FormatCents},
		{Metric{Expr: "MIN(payments.tip_pence)", Format: "integer"}, FormatCents},
		{Metric{Expr: "SUM(payments.amount)", Unit: "cents"}, FormatCents},
		{Metric{Expr: "SUM(payments.amount)", Format: "currency"}, "currency"},
		{Metric{Expr: "COUNT(payments.amount_cents)", Format: "integer"}, "integer"},
		{Metric{Expr: "SUM(payments.amount_cents) / COUNT(payments.id)", Format: "number"}, "number"},
		{Metric{Expr: "(SUM(payments.amount_cents)) / 100.0", Format: "currency", Unit: "USD"}, "currency"},
		{Metric{Expr: "AVG(payments.amount_cents)", Format: "percent"}, "percent"},
		{Metric{Expr: "SUM(refunds.amount_cents)", Format: "number"}, "number"},
	} {
		if got := m.OutFormat(&tc.mt); got != tc.want {
			t.Errorf("OutFormat(%s, %q, unit %q) = %q, want %q", tc.mt.Expr, tc.mt.Format, tc.mt.Unit, got, tc.want)
		}
	}
	for in, want := range map[string]string{"amount cents": "amount", "Fee Pence": "Fee", "cents": "cents", "percent": "percent", "price_cents": "price", "sum_tickets_price_cents": "sum_tickets_price", "_cents": "_cents"} {
		if got := MinorUnitLess(in); got != want {
			t.Errorf("MinorUnitLess(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestListedCentsAsMoney: a listed column held in cents is shown as
// money and named without its unit, where that name is free; a column
// that is not money keeps its name and format.
func TestListedCentsAsMoney(t *testing.T) {
	m := &Model{Entities: []Entity{{Name: "tickets", PrimaryKey: "id", Columns: []Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "price_cents", Type: quarry.TypeInt, Unit: "cents"}, {Name: "seats", Type: quarry.TypeInt},
		{Name: "fee_cents", Type: quarry.TypeInt}, {Name: "fee", Type: quarry.TypeText}}}}}
	c, err := Compile(m, Query{Rows: &RowsQuery{Entity: "tickets", Columns: []string{"price_cents", "seats", "fee_cents"}}}, quarry.DialectSQLite)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range c.Columns {
		got[o.Name] = o.Format
	}
	want := map[string]string{"price": FormatCents, "seats": "", "fee_cents": FormatCents}
	for n, f := range want {
		if g, ok := got[n]; !ok || g != f {
			t.Errorf("column %s: format %q (present %v), want %q; all %v\n%s", n, g, ok, f, got, c.SQL)
		}
	}
	if !strings.Contains(c.SQL, "tickets.price_cents AS price") {
		t.Errorf("SQL %s", c.SQL)
	}
}
