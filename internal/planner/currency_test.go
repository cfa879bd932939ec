package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCurrencySaid: an amount said in a currency ("above 1000 euros") is
// of the rows in that currency where a currency column says it (found
// from outside: 36 payments in francs among those "above 1000 euros", at
// full confidence); a currency the column does not hold is refused, as
// quarry does not convert; with no currency column the word stays the
// number's.
func TestCurrencySaid(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "payments", Table: "payments", PrimaryKey: "payment_id", TimeColumn: "paid_at", Columns: []semantic.Column{
			{Name: "payment_id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}, {Name: "paid_at", Type: quarry.TypeTimestamp},
			{Name: "currency", Type: quarry.TypeText, Values: []string{"CHF", "EUR"}}}},
		{Name: "invoices", Table: "invoices", PrimaryKey: "invoice_id", Columns: []semantic.Column{
			{Name: "invoice_id", Type: quarry.TypeInt}, {Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents"},
			{Name: "currency", Type: quarry.TypeText, Values: []string{"USD", "EUR"}}}},
		{Name: "fees", Table: "fees", PrimaryKey: "fee_id", Columns: []semantic.Column{
			{Name: "fee_id", Type: quarry.TypeInt}, {Name: "amount", Type: quarry.TypeFloat}}},
	}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q, want string // want: in the SQL; "": refused
	}{
		{"payments above 1000 euros", "payments.currency = 'EUR'"},
		{"how many payments above 1000 euros", "payments.currency = 'EUR'"},
		{"how many payments above 1000 pounds", ""},
		{"how many fees above 50 dollars", "fees.amount > 50"},
		// The measure's money asked in a currency: its rows in it
		// (found from outside: three currencies summed as dollars).
		{"total invoice amount in euros", "invoices.currency = 'EUR'"},
		{"average invoice amount in pounds", ""},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			answered := pl.Kind == KindMetric || pl.Kind == KindRows
			if tt.want == "" {
				if answered {
					t.Fatalf("answered %+v; want a refusal", pl.Query.Filters)
				}
				if !strings.Contains(pl.Reason, "does not convert") {
					t.Errorf("reason %q", pl.Reason)
				}
				return
			}
			if !answered {
				t.Fatalf("kind %s: %s %v", pl.Kind, pl.Reason, pl.Unknown)
			}
			c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
			if err != nil || !strings.Contains(c.SQL, tt.want) {
				t.Errorf("%v; SQL does not hold %q:\n%s", err, tt.want, c.SQL)
			}
		})
	}
}
