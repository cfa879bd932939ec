package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func claimsOrdersModel() *semantic.Model {
	num := func(n string, t quarry.Type) semantic.Column { return semantic.Column{Name: n, Type: t} }
	return &semantic.Model{Entities: []semantic.Entity{
		{Name: "claims", PrimaryKey: "id", TimeColumn: "reported_on", Columns: []semantic.Column{
			num("id", quarry.TypeInt), num("reported_on", quarry.TypeDate), num("amount_claimed", quarry.TypeFloat), num("amount_approved", quarry.TypeFloat),
			{Name: "is_fraud_suspected", Type: quarry.TypeInt, Values: []string{"0", "1"}},
		}},
		{Name: "orders", PrimaryKey: "id", TimeColumn: "opened_at", Columns: []semantic.Column{
			num("id", quarry.TypeInt), num("opened_at", quarry.TypeTimestamp), num("covers", quarry.TypeInt), num("total", quarry.TypeFloat), num("tip", quarry.TypeFloat),
		}},
	}}
}

// TestBareNumberAsksWhich: a comparison with a number and nothing it
// compares, of a table with several numbers it may be, asks which, each
// option the question with the column named and answered so (found from
// outside: "how many claims over $50,000 this year" and "how many orders
// over 500 last month" refused as "a comparison without a number or a
// measure").
func TestBareNumberAsksWhich(t *testing.T) {
	p := New(claimsOrdersModel(), nil)
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"how many claims over $50,000 this year", []string{"how many claims with an amount claimed over $50,000 this year", "how many claims with an amount approved over $50,000 this year"}},
		{"how many claims over 50000 this year", []string{"how many claims with an amount claimed over 50000 this year", "how many claims with an amount approved over 50000 this year"}},
		{"how many orders over 500 last month", []string{"how many orders with a total over 500 last month", "how many orders with covers over 500 last month", "how many orders with a tip over 500 last month"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != KindClarify {
				t.Fatalf("%s: %s %+v", pl.Kind, pl.Reason, pl.Query)
			}
			if d := cmp.Diff(tc.want, pl.Options); d != "" {
				t.Errorf("options (-want +got):\n%s\n%s", d, pl.Question)
			}
			for _, o := range pl.Options {
				if again := p.Plan(o, asOf); again.Kind != KindMetric || again.Query == nil || len(again.Query.Filters) == 0 || again.Query.Filters[0].Op != semantic.OpGt {
					t.Errorf("%q: %s %s %+v", o, again.Kind, again.Reason, again.Query)
				}
			}
		})
	}
}

// TestColumnNamedTotalCompared: a column named "total" before a
// comparison is that column, not a sum of what follows.
func TestColumnNamedTotalCompared(t *testing.T) {
	p := New(claimsOrdersModel(), nil)
	pl := p.Plan("how many orders with a total over 500 last month", asOf)
	if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "orders.total" {
		t.Fatalf("%s: %s %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("total tip of orders over 500", asOf); pl.Query != nil && strings.Contains(strings.Join(pl.Query.Metrics, " "), "total") && len(pl.Query.Filters) == 0 {
		t.Errorf("a sum read as the column: %+v", pl.Query)
	}
}

// TestAverageOfRowsAsksWhichAmount: an average of a table's rows ("average
// claim amount") of a table with several amounts and no one total asks
// which, each option answered (found from outside: refused as "an
// average of claims is not something quarry can read").
func TestAverageOfRowsAsksWhichAmount(t *testing.T) {
	m := claimsOrdersModel()
	m.Entities = append(m.Entities, semantic.Entity{Name: "claim_payments", PrimaryKey: "id", TimeColumn: "paid_on", Columns: []semantic.Column{
		{Name: "id", Type: quarry.TypeInt}, {Name: "claim_id", Type: quarry.TypeInt}, {Name: "paid_on", Type: quarry.TypeDate}, {Name: "amount", Type: quarry.TypeFloat}}})
	m.Relationships = append(m.Relationships, semantic.Relationship{From: "claim_payments", FromColumn: "claim_id", To: "claims", ToColumn: "id", Cardinality: semantic.ManyToOne})
	p := New(m, nil)
	for q, want := range map[string][]string{
		"average claim amount":                []string{"average amount claimed", "average amount approved"},
		"average claim amount last year":      []string{"average amount claimed last year", "average amount approved last year"},
		"what is the average claim this year": []string{"what is the average amount claimed this year", "what is the average amount approved this year"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindClarify {
			t.Errorf("%q: %s %s %+v", q, pl.Kind, pl.Reason, pl.Query)
			continue
		}
		if d := cmp.Diff(want, pl.Options); d != "" {
			t.Errorf("%q: options (-want +got):\n%s", q, d)
		}
	}
}
