package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestPaymentsReceived: payments said received or collected are those
// that went through, not the failed ones too (found from outside: "total
// payments received in 2025" 656,162 for 577,956, the word passed over);
// payments said plainly are every one, as before.
func TestPaymentsReceived(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "paid_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "amount", Type: quarry.TypeFloat},
		{Name: "method", Type: quarry.TypeText, Values: []string{"card", "wire"}},
		{Name: "status", Type: quarry.TypeText, Values: []string{"succeeded", "failed"}}}}}}
	p := New(m, nil)
	done := func(f semantic.Filter) bool {
		return f.Field == "payments.status" && slices.Equal(f.Values, []any{"succeeded"})
	}
	for q, want := range map[string]bool{
		"total payments received in 2025":                true,
		"number of payments collected by method in 2025": true,
		"how many payments received in 2025":             true,
		"payments received in 2025":                      true,
		"payments in 2025":                               false,
		"total payments in 2025":                         false,
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || slices.ContainsFunc(pl.Query.Filters, done) != want {
			t.Errorf("%q: %s %q %+v; want the succeeded ones alone: %v", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
}

// TestTotalSaidWithItsDate: a total of a table's rows said with the verb
// of one of its dates ("total payments received last month", where
// received_at is that date) is the total of the table's amount in the
// period on that date (found from outside: refused, "received_at is not
// a number"). The date holds the period even where the table's own time
// is another; a verb the rows' words do not come before is not read so.
func TestTotalSaidWithItsDate(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "payments", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
		{Name: "received_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "amount", Type: quarry.TypeFloat},
		{Name: "status", Type: quarry.TypeText, Values: []string{"succeeded", "failed"}}}}}}
	p := New(m, nil)
	for q, want := range map[string]string{
		"total payments received last month":  "SUM payments.received_at 2026-05-01",
		"total payments received in 2025":     "SUM payments.received_at 2025-01-01",
		"average payment received last month": "AVG payments.received_at 2026-05-01",
		"total payments received":             "SUM",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 {
			t.Errorf("%q: %s %q; want a metric", q, pl.Kind, pl.Reason)
			continue
		}
		mt := pl.over(p.m).Metric(pl.Query.Metrics[0])
		got := strings.Fields(mt.Expr)[0][:3]
		if !strings.Contains(mt.Expr, "payments.amount") {
			got += " " + mt.Expr
		}
		if r := pl.Query.TimeRange; r != nil {
			got += " " + r.Field + " " + r.From
		}
		if got != want {
			t.Errorf("%q: %s; want %s", q, got, want)
		}
	}
}

// TestTotalOrdersSaidWithItsDate: "total orders" is how many, so "total
// orders shipped last month" is not read as the orders' amount.
func TestTotalOrdersSaidWithItsDate(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "orders", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
		{Name: "shipped_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "amount", Type: quarry.TypeFloat}}}}}
	p := New(m, nil)
	pl := p.Plan("total orders shipped last month", asOf)
	if pl.Query != nil && len(pl.Query.Metrics) == 1 && strings.Contains(pl.over(p.m).Metric(pl.Query.Metrics[0]).Expr, "amount") {
		t.Errorf("%s %+v; want no total of the orders' amount", pl.Kind, pl.Query)
	}
}

// TestTotalCollectionsSaidWithTheirDate: a table of payments by another
// name (collections, remittances) said with the verb of one of its dates
// is the total of its amount too (found from outside: "total collections
// received in 2025 by city" counted the rows; "total collections
// collected last month" and "total remittances paid last month" were
// refused). "total remittances" is their amount, as "total payments" is;
// "total orders shipped" stays how many (the test above).
func TestTotalCollectionsSaidWithTheirDate(t *testing.T) {
	table := func(name, date string) semantic.Entity {
		return semantic.Entity{Name: name, PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt}, {Name: "created_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			{Name: date, Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent}, {Name: "amount_cents", Type: quarry.TypeInt}}}
	}
	m := &semantic.Model{Entities: []semantic.Entity{table("collections", "collected_at"), table("remittances", "paid_at"), table("receipts", "received_at")}}
	p := New(m, nil)
	for q, want := range map[string]string{
		"total collections collected last month": "SUM collections.amount_cents collections.collected_at 2026-05-01",
		"total remittances paid last month":      "SUM remittances.amount_cents remittances.paid_at 2026-05-01",
		"total receipts received in 2025":        "SUM receipts.amount_cents receipts.received_at 2025-01-01",
		// A remittance is money sent, as a payment is.
		"total remittances last month": "SUM remittances.amount_cents remittances.created_at 2026-05-01",
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 {
			t.Errorf("%q: %s %q; want a metric", q, pl.Kind, pl.Reason)
			continue
		}
		mt := pl.over(p.m).Metric(pl.Query.Metrics[0])
		got := strings.Fields(mt.Expr)[0][:3] + " " + strings.TrimSuffix(strings.TrimPrefix(mt.Expr, "SUM("), ")")
		if r := pl.Query.TimeRange; r != nil {
			field := r.Field
			if field == "" { // the table's own time
				field = mt.Entity + "." + p.entity(mt.Entity).TimeColumn
			}
			got += " " + field + " " + r.From
		}
		if got != want {
			t.Errorf("%q: %s; want %s", q, got, want)
		}
	}
}
