package analyst

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestNullCheck: "inactive accounts" (is_active = 0) drops the accounts
// whose flag is unknown; the check warns with how many. "accounts that
// aren't in NA" keeps the accounts with no region (the compiler's "<>"
// holds on NULL), so the check stays out of it.
func TestNullCheck(t *testing.T) {
	a := sqliteAnalyst(t, `CREATE TABLE accounts (id INTEGER PRIMARY KEY, region TEXT, plan TEXT, is_active INTEGER);
CREATE TABLE users (id INTEGER PRIMARY KEY, account_id INTEGER);
INSERT INTO accounts VALUES (1, 'NA', 'pro', 1), (2, 'EU', 'pro', 0), (3, NULL, 'free', 0), (4, 'APAC', 'free', 1), (5, NULL, NULL, NULL);
INSERT INTO users VALUES (1, 1), (2, 2), (3, 3), (4, 3), (5, 4), (6, 5);`)
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "accounts", Table: "accounts", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "region", Type: quarry.TypeText}, {Name: "plan", Type: quarry.TypeText}, {Name: "is_active", Type: quarry.TypeInt}}},
			{Name: "users", Table: "users", PrimaryKey: "id", Columns: []semantic.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "account_id", Type: quarry.TypeInt}}},
		},
		Relationships: []semantic.Relationship{{From: "users", FromColumn: "account_id", To: "accounts", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "accounts", Entity: "accounts", Expr: "COUNT(accounts.id)"}, {Name: "users", Entity: "users", Expr: "COUNT(users.id)"}},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	check := func(q semantic.Query) verify.Check {
		return runCheck(t, a, m, q, func(ctx context.Context, m *semantic.Model, q *semantic.Query, _ *Result, _ *semantic.Compiled) verify.Check {
			return a.NullCheck(ctx, m, q)
		})
	}
	// "not NA", <> and NOT IN, keeps the accounts with no region: the
	// compiler says so, so nothing is left out and the check stays out.
	notNA := []semantic.Filter{{Field: "accounts.region", Op: semantic.OpNe, Values: []any{"NA"}}}
	if ch := check(semantic.Query{Metrics: []string{"accounts"}, Filters: notNA}); ch.Status != "" {
		t.Errorf("accounts not in NA: %s %q", ch.Status, ch.Detail)
	}
	notIn := []semantic.Filter{{Field: "accounts.region", Op: semantic.OpNotIn, Values: []any{"NA", "EU"}}, {Field: "accounts.plan", Op: semantic.OpEq, Values: []any{"free"}}}
	if ch := check(semantic.Query{Rows: &semantic.RowsQuery{Entity: "accounts", Columns: []string{"id"}}, Filters: notIn}); ch.Status != "" {
		t.Errorf("free accounts not in NA or EU: %s %q", ch.Status, ch.Detail)
	}
	if ch := check(semantic.Query{Metrics: []string{"accounts"}, Filters: []semantic.Filter{{Field: "accounts.region", Op: semantic.OpEq, Values: []any{"NA"}}}}); ch.Status != "" {
		t.Errorf("in NA: %s %q", ch.Status, ch.Detail)
	}
	// "inactive accounts" (is_active = 0) leaves out those whose flag is
	// unknown as "<>" does; "active" (= 1) is no "not".
	inactive := []semantic.Filter{{Field: "accounts.is_active", Op: semantic.OpEq, Values: []any{int64(0)}}}
	if ch := check(semantic.Query{Metrics: []string{"accounts"}, Filters: inactive}); ch.Status != verify.Warn || !strings.Contains(ch.Detail, `1 account has no is active recorded and is left out of "not active"`) {
		t.Errorf("inactive accounts: %s %q", ch.Status, ch.Detail)
	}
	if ch := check(semantic.Query{Metrics: []string{"accounts"}, Filters: []semantic.Filter{{Field: "accounts.is_active", Op: semantic.OpEq, Values: []any{int64(1)}}}}); ch.Status != "" {
		t.Errorf("active accounts: %s %q", ch.Status, ch.Detail)
	}
}

// TestValuesWordsSpellings: a "not" filter on one value in several
// spellings names the value once.
func TestValuesWordsSpellings(t *testing.T) {
	if got, want := valuesWords([]any{"NA", "na ", "EU"}), "na or EU"; got != want {
		t.Errorf("valuesWords = %q, want %q", got, want)
	}
}
