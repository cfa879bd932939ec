package semantic

import "testing"

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
	for in, want := range map[string]string{"amount cents": "amount", "Fee Pence": "Fee", "cents": "cents", "percent": "percent"} {
		if got := MinorUnitLess(in); got != want {
			t.Errorf("MinorUnitLess(%q) = %q, want %q", in, got, want)
		}
	}
}
