package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCentsShownAsMoney: a total or average of an amount held in cents
// is titled by the amount, not its unit, and its column is shown as money
// divided by 100, which the reading says (found from outside: "total late
// fees" shown as 1,447,500 for $14,475.00); asked "in dollars", the SQL
// divides and nothing is divided again; a count of the column is a count.
func TestCentsShownAsMoney(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents"}, {Name: "paid_at", Type: quarry.TypeTimestamp, TimeRole: semantic.TimeRoleEvent}}},
		},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := New(m, nil)
	shown := func(pl *Plan) string {
		c, err := semantic.Compile(pl.Model(m), *pl.Query, quarry.DialectSQLite)
		if err != nil {
			t.Fatal(err)
		}
		return c.Columns[len(c.Columns)-1].Format
	}
	for _, q := range []string{"total payments last month", "average payment amount", "largest payment amount this year"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Fatalf("%q: %s %s", q, pl.Kind, pl.Reason)
		}
		if f := shown(pl); f != semantic.FormatCents {
			t.Errorf("%q: shown as %q, want %q", q, f, semantic.FormatCents)
		}
		if strings.Contains(pl.Title, "cents") || !strings.Contains(pl.Title, "amount of payments") {
			t.Errorf("%q: titled %q", q, pl.Title)
		}
		if strings.HasSuffix(pl.Query.Metrics[0], "cents") {
			t.Errorf("%q: the measure shown as money is named %s", q, pl.Query.Metrics[0])
		}
		if !slices.ContainsFunc(pl.Notes, func(n string) bool { return strings.Contains(n, "amount_cents holds cents") }) {
			t.Errorf("%q: the reading does not say the cents are divided: %q", q, pl.Notes)
		}
	}
	pl := p.Plan("total payments in dollars last month", asOf)
	if pl.Kind != KindMetric || shown(pl) != "currency" || slices.ContainsFunc(pl.Notes, func(n string) bool { return strings.HasSuffix(n, centsShown) }) {
		t.Errorf("in dollars: %s %q, notes %q", pl.Kind, pl.Reason, pl.Notes)
	}
	if pl := p.Plan("how many payments last month", asOf); pl.Kind != KindMetric || shown(pl) == semantic.FormatCents {
		t.Errorf("a count shown as money: %s %q", pl.Kind, pl.Reason)
	}
}
