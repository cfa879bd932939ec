package planner

import (
	"fmt"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestNumberBeforeState: a comparison said after the rows or their
// amount and before a word that is a state and a date's verb ("issued")
// compares the amount, not the word (found from outside: "how many
// invoices over $400 were issued this year" refused, the number read as
// said of "issued").
func TestNumberBeforeState(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{
		Name: "invoices", Table: "invoices", PrimaryKey: "id", TimeColumn: "issued_on",
		Columns: []semantic.Column{
			{Name: "id", Type: quarry.TypeInt},
			{Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents"},
			{Name: "status", Type: quarry.TypeText, Values: []string{"draft", "issued", "paid", "void"}},
			{Name: "issued_on", Type: quarry.TypeDate},
		},
	}}}
	p := New(m, nil)
	for _, q := range []string{
		"how many invoices over $400 were issued this year",
		"how many invoices over 400 dollars were issued this year",
		"invoices over $400 issued this year",
	} {
		t.Run(q, func(t *testing.T) {
			pl := p.Plan(q, asOf)
			if pl.Query == nil {
				t.Fatalf("%s: %s %s", pl.Kind, pl.Reason, pl.Question)
			}
			found := false
			for _, f := range pl.Query.Filters {
				found = found || f.Field == "invoices.amount_cents" && f.Op == semantic.OpGt && len(f.Values) == 1 && fmt.Sprint(f.Values[0]) == "40000"
			}
			if !found {
				t.Errorf("filters %+v; want invoices.amount_cents > 40000", pl.Query.Filters)
			}
		})
	}
	// No unit said: dollars or cents is asked, not guessed.
	if pl := p.Plan("how many invoices over 400 were issued this year", asOf); pl.Kind != KindClarify {
		t.Errorf("no unit: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}
