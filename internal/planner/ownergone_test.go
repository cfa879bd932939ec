package planner

import (
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestInForceOfDeletedOwner: a subscription marked active is not in force
// on a day its account was deleted by (found from outside: 74 active
// subscriptions for 72, two of deleted accounts, at 1.00); every
// subscription on record still counts those of deleted accounts.
func TestInForceOfDeletedOwner(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{id("id"), {Name: "name", Type: quarry.TypeText}, {Name: "deleted_at", Type: quarry.TypeDate}}},
			{Name: "subscriptions", PrimaryKey: "id", TimeColumn: "started_on", Columns: []semantic.Column{id("id"), id("account_id"),
				{Name: "started_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "mrr", Type: quarry.TypeFloat},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "cancelled"}}}},
		},
		Relationships: []semantic.Relationship{{From: "subscriptions", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne}},
	}
	gone := func(f semantic.Filter) bool {
		return f.Field == "accounts.deleted_at" && f.Op == semantic.OpGe && f.OrNull && slices.Equal(f.Values, []any{"2026-07-01"})
	}
	p := New(m, nil)
	for q, want := range map[string]bool{"how many active subscriptions": true, "total mrr of active subscriptions": true, "how many cancelled subscriptions": false} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || slices.ContainsFunc(pl.Query.Filters, gone) != want {
			t.Errorf("%q: %s %q %+v; want those of accounts deleted by the day left out: %v", q, pl.Kind, pl.Reason, pl.Query, want)
		}
	}
}

// TestCurrentAsActive: "current contracts" of a table whose status says
// in force is "active contracts", status and dates both (found from
// outside: cancelled and expired contracts that end later counted as
// current, 10 for 3, at 1.00); of a table with no such status, the end
// date alone.
func TestCurrentAsActive(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	end := semantic.Column{Name: "end_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "contracts", PrimaryKey: "id", TimeColumn: "start_date", Columns: []semantic.Column{id("id"), {Name: "start_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, end,
			{Name: "status", Type: quarry.TypeText, Values: []string{"active", "cancelled", "expired"}}}},
		{Name: "memberships", PrimaryKey: "id", TimeColumn: "start_date", Columns: []semantic.Column{id("id"), {Name: "start_date", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, end}},
	}}
	p := New(m, nil)
	status := func(f semantic.Filter) bool {
		return f.Field == "contracts.status" && slices.Equal(f.Values, []any{"active"})
	}
	for _, q := range []string{"current contracts", "how many current contracts"} {
		if pl := p.Plan(q, asOf); pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, status) {
			t.Errorf("%q: %s %q %+v; want the active ones", q, pl.Kind, pl.Reason, pl.Query)
		}
	}
	if pl := p.Plan("how many current memberships", asOf); pl.Query == nil || !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.Field == "memberships.end_date" }) {
		t.Errorf("current memberships: %s %q %+v; want by the end date", pl.Kind, pl.Reason, pl.Query)
	}
}
