package planner

import (
	"slices"
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
		"total payments received in 2025":      true,
		"payments collected by method in 2025": true,
		"how many payments received in 2025":   true,
		"payments received in 2025":            true,
		"payments in 2025":                     false,
		"total payments in 2025":               false,
	} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || slices.ContainsFunc(pl.Query.Filters, done) != want {
			t.Errorf("%q: %s %q %+v; want the succeeded ones alone: %v", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
}
