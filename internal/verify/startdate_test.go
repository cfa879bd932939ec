package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

func startModel(role string) *semantic.Model {
	return &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "customers", PrimaryKey: "id", TimeColumn: "signup_date", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "signup_date", Type: quarry.TypeDate, TimeRole: role}}},
			{Name: "orders", PrimaryKey: "id", TimeColumn: "ordered_at", Columns: []semantic.Column{
				{Name: "id", Type: quarry.TypeInt}, {Name: "customer_id", Type: quarry.TypeInt}, {Name: "ordered_at", Type: quarry.TypeTimestamp}}},
		},
		Relationships: []semantic.Relationship{{From: "orders", FromColumn: "customer_id", To: "customers", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "customers", Entity: "customers", Expr: "COUNT(customers.id)"}},
	}
}

// TestNotYetStarted: a count that admits zero, kept to a period, warns
// where the rows that did not exist yet are counted — the subject has no
// start date, or the query does not filter on it — and not where the
// query keeps them out, the count does not admit zero, or there is no
// period.
func TestNotYetStarted(t *testing.T) {
	count := func(op semantic.Op, n int, period bool) semantic.Filter {
		f := semantic.Filter{Field: "orders", Op: op, Values: []any{n}, Count: true}
		if period {
			f.Where = []semantic.Filter{
				{Field: "orders.ordered_at", Op: semantic.OpGe, Values: []any{"2025-01-01"}},
				{Field: "orders.ordered_at", Op: semantic.OpLt, Values: []any{"2026-01-01"}},
			}
		}
		return f
	}
	started := semantic.Filter{Field: "customers.signup_date", Op: semantic.OpLt, Values: []any{"2026-01-01"}}
	for _, tc := range []struct {
		name string
		role string
		q    semantic.Query
		warn string // "" = no warning
	}{
		{"no start date", "", semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpLt, 2, true)}}, "customers has no start date"},
		{"no start date, a list", "", semantic.Query{Rows: &semantic.RowsQuery{Entity: "customers"}, Filters: []semantic.Filter{count(semantic.OpLe, 1, true)}}, "customers has no start date"},
		{"start date not filtered", semantic.TimeRoleStart, semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpLt, 2, true)}}, "on or after 2026-01-01"},
		{"start date filtered", semantic.TimeRoleStart, semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpLt, 2, true), started}}, ""},
		{"start date's period", semantic.TimeRoleStart, semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpLt, 2, true)}, TimeRange: &semantic.TimeRange{To: "2026-01-01"}}, ""},
		{"zero not admitted", "", semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpGt, 5, true)}}, ""},
		{"no period", "", semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpLt, 2, false)}}, ""},
		{"an event date is no start", semantic.TimeRoleEvent, semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpEq, 0, true)}}, "customers has no start date"},
		// Kept to the rows dated before the end by their own date: no
		// row that came later is counted, start date or not (found from
		// outside: the warning contradicted the SQL below it).
		{"own date filtered", semantic.TimeRoleEvent, semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpEq, 0, true), started}}, ""},
		{"own date's period", semantic.TimeRoleEvent, semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpEq, 0, true)}, TimeRange: &semantic.TimeRange{To: "2026-01-01"}}, ""},
		{"own date's period ends later", semantic.TimeRoleEvent, semantic.Query{Metrics: []string{"customers"}, Filters: []semantic.Filter{count(semantic.OpEq, 0, true)}, TimeRange: &semantic.TimeRange{To: "2026-03-01"}}, "customers has no start date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(tc.role)
			got := NotYetStarted(m, &tc.q)
			if tc.warn == "" && got != "" || tc.warn != "" && !strings.Contains(got, tc.warn) {
				t.Errorf("NotYetStarted = %q, want %q", got, tc.warn)
			}
			tab := &quarry.Table{Columns: []quarry.Column{{Name: "customers"}}, Rows: [][]any{{int64(7)}}}
			c := &semantic.Compiled{Columns: []semantic.OutColumn{{Name: "customers", Role: semantic.RoleMetric}}}
			rep := Run(InputFor(m, &tc.q, c, tab, 1, false))
			found := false
			for _, ch := range rep.Checks {
				found = found || ch.Name == CheckStartDate && ch.Status == Warn
			}
			if found != (tc.warn != "") {
				t.Errorf("checks %+v: want a start_date warning %v", rep.Checks, tc.warn != "")
			}
		})
	}
}
