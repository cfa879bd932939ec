package planner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestMoneyInCents: an amount written as money ("$70", "70 dollars")
// compared with a column that holds cents is 7000 of them; an outside
// tester found "payments over $70" counted those over 70 cents (1,517
// where 334 are over $70), at 1.00. Money compared with a count of rows
// is refused. A bare number is asked back: dollars or cents (found from
// outside: "salaries above 150000" compared as cents, every salary
// matched, at 1.00); written in cents, it is compared as written.
func TestMoneyInCents(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "members", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "payments", PrimaryKey: "id", TimeColumn: "paid_at", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "member_id", Type: quarry.TypeInt},
				{Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents", Synonyms: []string{"amount"}},
				{Name: "paid_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEvent},
			}},
		},
		Relationships: []semantic.Relationship{{From: "payments", FromColumn: "member_id", To: "members", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	p := New(m, nil)
	for _, tt := range []struct {
		q, value, refuse string
		options          []string
	}{
		{q: "how many payments were more than $70", value: "7000"},
		{q: "how many payments over 70 dollars", value: "7000"},
		{q: "how many payments over 7000 cents", value: "7000"},
		{q: "how many payments over 70", options: []string{"how many payments over $70", "how many payments over 70 cents"}},
		{q: "How many payments were above 1,500?", options: []string{"How many payments were above $1,500?", "How many payments were above 1,500 cents?"}},
		{q: "how many payments between 20 and 50", options: []string{"how many payments between $20 and 50", "how many payments between 20 cents and 50"}},
		{q: "members with more than $500 in payments", refuse: "is an amount of money"},
	} {
		pl := p.Plan(tt.q, asOf)
		if tt.options != nil {
			if pl.Kind != KindClarify || !strings.Contains(pl.Question, "dollars") {
				t.Errorf("%q: %s %q %+v; want asked: dollars or cents", tt.q, pl.Kind, pl.Reason, pl.Query)
			} else if diff := cmp.Diff(tt.options, pl.Options); diff != "" {
				t.Errorf("%q: options (-want +got):\n%s", tt.q, diff)
			}
			continue
		}
		if tt.refuse != "" {
			if pl.Query != nil || !strings.Contains(pl.Reason, tt.refuse) {
				t.Errorf("%q: %s %q; want a refusal saying %q", tt.q, pl.Kind, pl.Reason, tt.refuse)
			}
			continue
		}
		if pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "payments.amount_cents" || len(pl.Query.Filters[0].Values) != 1 || fmt.Sprint(pl.Query.Filters[0].Values[0]) != tt.value {
			t.Errorf("%q: %s %q %+v; want amount_cents compared with %s", tt.q, pl.Kind, pl.Reason, pl.Query, tt.value)
			continue
		}
		if cents := strings.Contains(strings.Join(pl.Notes, " "), "read as 7000 cents"); cents != !strings.Contains(tt.q, "cents") {
			t.Errorf("%q: notes %q", tt.q, pl.Notes)
		}
	}
}

// TestBareAmountEnds: "how many payments above € 50" was read as a
// comparison of the payments' one amount, planned again, read so again,
// without end: the process grew to gigabytes and never answered (found
// from outside). Every reading now returns.
func TestBareAmountEnds(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{{Name: "payments", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "amount_cents", Type: quarry.TypeInt, Unit: "cents"}}}}}
	p := New(m, nil)
	// A reading without end fails by go test's -timeout, with the stack
	// of where it loops.
	for _, q := range []string{"how many payments above € 50", "how many payments above €50", "how many payments above $ 50", strings.Repeat("payments ", 400)} {
		p.Plan(q, asOf)
	}
}
