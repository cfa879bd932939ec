package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestValueOfNounAfter: a value said right before a table's noun is that
// table's ("accounts with an active subscription"), though the subject
// holds it too (found from outside: the accounts' status taken, refused);
// and "started" names start_date of the table the question names, not
// another table's started_on (found from outside: "how many projects
// started this year" refused).
func TestValueOfNounAfter(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	status := semantic.Column{Name: "status", Type: quarry.TypeText, Values: []string{"active", "churned", "cancelled"}}
	date := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeDate} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}, status}},
			{Name: "subscriptions", PrimaryKey: "id", TimeColumn: "started_on", Columns: []semantic.Column{id("id"), id("account_id"), status, date("started_on")}},
			{Name: "projects", PrimaryKey: "id", TimeColumn: "created_at", Columns: []semantic.Column{id("id"), id("account_id"), date("created_at"), date("start_date")}},
		},
		Relationships: []semantic.Relationship{
			{From: "subscriptions", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "projects", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
	}
	p := New(m, nil)
	for _, q := range []string{"accounts with an active subscription", "how many accounts have an active subscription"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool {
			return f.Field == "subscriptions" && f.Op == semantic.OpSome && slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return w.Field == "subscriptions.status" })
		}) {
			t.Errorf("%q: %s %q %+v; want the accounts with an active subscription", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("how many active accounts", asOf); pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "accounts.status" }) {
		t.Errorf("how many active accounts: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
	if pl := p.Plan("how many projects started in 2025", asOf); pl.Query == nil || pl.Query.TimeRange == nil || pl.Query.TimeRange.Field != "projects.start_date" {
		t.Errorf("projects started in 2025: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}
