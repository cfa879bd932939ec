package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCoverageNounOfRelatedRows: "subscription" in "accounts with an
// active subscription" is the noun of the rows the accounts must have,
// not the line type 'subscription' of invoice lines (found from outside:
// the answer refused for it); the value said of other rows is still read.
func TestCoverageNounOfRelatedRows(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}}},
			{Name: "subscriptions", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "account_id", Type: quarry.TypeInt},
				{Name: "status", Type: quarry.TypeText, Values: []string{"active", "cancelled"}}}},
			{Name: "invoice_lines", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "account_id", Type: quarry.TypeInt},
				{Name: "line_type", Type: quarry.TypeText, Values: []string{"subscription", "services"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "subscriptions", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "invoice_lines", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{{Name: "accounts", Entity: "accounts", Expr: "COUNT(accounts.id)"}},
	}
	active := semantic.Filter{Field: "subscriptions", Op: semantic.OpSome, Where: []semantic.Filter{{Field: "subscriptions.status", Op: semantic.OpEq, Values: []any{"active"}}}}
	const want = "'subscription' (a value of invoice_lines.line_type) is not filtered on"
	if failed := coverageFailures("how many accounts have an active subscription", "2026-06-30", m, &semantic.Query{Metrics: []string{"accounts"}, Filters: []semantic.Filter{active}}); strings.Contains(failed, want) {
		t.Errorf("the noun of the related rows read as a value: %s", failed)
	}
	if failed := coverageFailures("how many accounts have subscription lines", "2026-06-30", m, &semantic.Query{Metrics: []string{"accounts"}, Filters: []semantic.Filter{{Field: "invoice_lines", Op: semantic.OpSome}}}); !strings.Contains(failed, want) {
		t.Errorf("the line type left unread: %q", failed)
	}
}

// TestCoverageTableGroupedBy: "branch" in "loans by branch" is the table
// the query groups by, not the channel 'branch' of the loans'
// applications (found from outside, on a credit union: every grouping by
// branch refused for it). Grouped by something else, the value is still
// read.
func TestCoverageTableGroupedBy(t *testing.T) {
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "branches", PrimaryKey: "id", Label: "name", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}}},
			{Name: "loans", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "branch_id", Type: quarry.TypeInt}, {Name: "application_id", Type: quarry.TypeInt}}},
			{Name: "applications", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt},
				{Name: "channel", Type: quarry.TypeText, Values: []string{"branch", "online", "phone"}}}},
		},
		Relationships: []semantic.Relationship{
			{From: "loans", FromColumn: "branch_id", To: "branches", ToColumn: "id", Cardinality: semantic.ManyToOne},
			{From: "loans", FromColumn: "application_id", To: "applications", ToColumn: "id", Cardinality: semantic.ManyToOne},
		},
		Metrics: []semantic.Metric{{Name: "loans", Entity: "loans", Expr: "COUNT(loans.id)"}},
	}
	const want = "'branch' (a value of applications.channel) is not filtered on"
	if failed := coverageFailures("loans by branch", "2026-06-30", m, &semantic.Query{Metrics: []string{"loans"}, Dimensions: []semantic.DimRef{{Name: "branches.name"}}}); strings.Contains(failed, want) {
		t.Errorf("the table grouped by read as a value: %s", failed)
	}
	if failed := coverageFailures("loans from branch by channel", "2026-06-30", m, &semantic.Query{Metrics: []string{"loans"}, Dimensions: []semantic.DimRef{{Name: "applications.channel"}}}); !strings.Contains(failed, want) {
		t.Errorf("the channel left unread: %q", failed)
	}
}
