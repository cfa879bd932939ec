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
