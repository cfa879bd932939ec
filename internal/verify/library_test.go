package verify_test

import (
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestCoverageOtherReadings: a word that is also another table's value is
// covered where the query reads it otherwise, as the planner does:
// "overdue" by the loans' dates (due before today, not returned), not the
// fines' reason 'overdue'; "children" as the membership type child, not
// the genre Children (both found from outside, answered wrong before the
// planner read them so); "active" as the rows a date closes not closed.
// A value read neither way still fails.
func TestCoverageOtherReadings(t *testing.T) {
	id := func(n string) semantic.Column { return semantic.Column{Name: n, Type: quarry.TypeInt} }
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "members", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "membership_type", Type: quarry.TypeText, Values: []string{"adult", "child"}}}},
			{Name: "titles", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "genre", Type: quarry.TypeText, Values: []string{"Children", "Fiction"}}}},
			{Name: "loans", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("member_id"), {Name: "due_on", Type: quarry.TypeDate}, {Name: "returned_on", Type: quarry.TypeDate}}},
			{Name: "fines", PrimaryKey: "id", Columns: []semantic.Column{id("id"), id("loan_id"), {Name: "reason", Type: quarry.TypeText, Values: []string{"overdue", "lost"}}}},
			{Name: "staff", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "hired_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleStart}, {Name: "terminated_on", Type: quarry.TypeDate, TimeRole: semantic.TimeRoleEnd}}},
			{Name: "accounts", PrimaryKey: "id", Columns: []semantic.Column{id("id"), {Name: "status", Type: quarry.TypeText, Values: []string{"active", "closed"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "loans", FromColumn: "member_id", To: "members", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "fines", FromColumn: "loan_id", To: "loans", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{{Name: "count_loans", Entity: "loans", Expr: "COUNT(loans.id)"}, {Name: "count_members", Entity: "members", Expr: "COUNT(members.id)"},
			{Name: "count_staff", Entity: "staff", Expr: "COUNT(staff.id)"}},
	}
	overdue := &semantic.Query{Metrics: []string{"count_loans"}, Filters: []semantic.Filter{
		{Field: "loans.due_on", Op: semantic.OpLt, Values: []any{"2026-06-30"}}, {Field: "loans.returned_on", Op: semantic.OpNull}}}
	children := &semantic.Query{Metrics: []string{"count_members"}, Filters: []semantic.Filter{{Field: "members.membership_type", Op: semantic.OpEq, Values: []any{"child"}}}}
	// "active staff": not gone (terminated_on empty), not the accounts'
	// status 'active' (found from outside on a schema of 8,750 tables).
	active := &semantic.Query{Metrics: []string{"count_staff"}, Filters: []semantic.Filter{{Field: "staff.terminated_on", Op: semantic.OpNull}}}
	for _, tc := range []struct {
		q    string
		sq   *semantic.Query
		fail bool
	}{
		{"how many loans are overdue", overdue, false},
		{"how many members are children", children, false},
		{"how many loans are overdue", &semantic.Query{Metrics: []string{"count_loans"}}, true},
		{"how many members are children", &semantic.Query{Metrics: []string{"count_members"}}, true},
		{"how many active staff", active, false},
		{"how many active staff", &semantic.Query{Metrics: []string{"count_staff"}}, true},
	} {
		failed := false
		for _, c := range verify.Coverage(tc.q, "2026-06-30", m, tc.sq) {
			failed = failed || c.Status == verify.Fail
		}
		if failed != tc.fail {
			t.Errorf("%q over %+v: failed %v, want %v", tc.q, tc.sq.Filters, failed, tc.fail)
		}
	}
}
