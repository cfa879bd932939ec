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
