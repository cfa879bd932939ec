package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestOwnStateWord: "active" said of a table with a date that closes its
// rows is those rows not closed, though another table, not one row of
// theirs, holds 'active' as a status (found from outside, on a schema of
// 8,750 tables: "how many active employees" refused, where the 14 tables
// of its core answered 100).
func TestOwnStateWord(t *testing.T) {
	m := &semantic.Model{Entities: []semantic.Entity{
		{Name: "employees", PrimaryKey: "id", TimeColumn: "hired_on", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "department", Type: quarry.TypeText, Values: []string{"Sales", "Ops"}},
			{Name: "hired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "terminated_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
		{Name: "crm_accounts", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "status", Type: quarry.TypeText, Values: []string{"active", "closed"}}}},
	}}
	p := New(m, nil)
	for _, q := range []string{"how many active employees", "how many active employees by department", "how many current employees"} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric || pl.Query == nil {
			t.Errorf("%q: %s %q %v", q, pl.Kind, pl.Reason, pl.Options)
			continue
		}
		var fs []string
		for _, f := range pl.Query.Filters {
			fs = append(fs, f.Field+" "+string(f.Op))
		}
		if got := strings.Join(fs, "; "); got != "employees.terminated_on is_null" {
			t.Errorf("%q: filters %q; want employees.terminated_on is_null", q, got)
		}
	}
	// The accounts' own status stays theirs.
	if pl := p.Plan("how many active crm accounts", asOf); pl.Query == nil || len(pl.Query.Filters) != 1 || pl.Query.Filters[0].Field != "crm_accounts.status" {
		t.Errorf("active crm accounts: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}

// TestUnqualifiedTable: a word that names several tables, one of whose
// names every other holds whole with words of its own (copies kept by
// region, year or stage), is that one table; tables that are not copies
// of one another are asked back (found from outside on a schema of 8,750
// tables: "how many tickets were closed in November" asked back with 17
// tables, where the 14 core tables answered 9).
func TestUnqualifiedTable(t *testing.T) {
	tickets := func(name string) semantic.Entity {
		return semantic.Entity{Name: name, PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
			{Name: "closed_at", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}}
	}
	m := &semantic.Model{Entities: []semantic.Entity{tickets("emea_support_tickets"), tickets("support_tickets"), tickets("apac_support_tickets"), tickets("support_tickets_2019"),
		tickets("sales_orders"), tickets("purchase_orders")}}
	p := New(m, nil)
	pl := p.Plan("how many tickets were closed in November 2025", asOf)
	if pl.Kind != KindMetric || pl.Query == nil || !strings.HasPrefix(pl.Query.TimeRange.Field, "support_tickets.") {
		t.Errorf("tickets: %s %q %v %+v; want support_tickets counted", pl.Kind, pl.Reason, pl.Options, pl.Query)
	}
	if pl := p.Plan("how many orders", asOf); pl.Kind != KindClarify {
		t.Errorf("orders of sales and of purchase: %s %+v; want asked which", pl.Kind, pl.Query)
	}
}
