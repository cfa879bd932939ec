package verify_test

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/demo"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// TestCoverageRoleUsesLink: a value read through a table's link to
// itself ("referred by Ines Xu": referrer.name) uses the link's column,
// which the question names ("referred by"); the planner's reading passes
// (found on the way: refused as leaving referred_by out).
func TestCoverageRoleUsesLink(t *testing.T) {
	f, err := knowledge.LoadFS(demo.Knowledge(), "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	p := planner.New(f.Model, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	vals := []planner.Value{{Entity: "customers", Column: "name", Value: "Ines Xu"}}
	for _, q := range []string{"how many customers were referred by Ines Xu", "customers whose referrer is Ines Xu", "how many customers were referred", "how many customers have a referrer", "how many customers were referred by someone in Germany"} {
		pl := p.PlanValues(q, asOf, vals)
		if pl.Query == nil {
			t.Errorf("%q: %s (%s); want a query", q, pl.Kind, pl.Reason)
			continue
		}
		for _, c := range verify.Coverage(q, "2026-06-30", pl.Model(f.Model), pl.Query) {
			if c.Status == verify.Fail {
				t.Errorf("%q: %s failed: %s", q, c.Name, c.Detail)
			}
		}
	}
}

// TestCoverageOneLinkUsed: a filter on the one table a link leads to
// ("staff.name" of refund requests, through approved_by) uses the link's
// column, which the question names ("approved by"); found in an outside
// round, refused as leaving approved_by out.
func TestCoverageOneLinkUsed(t *testing.T) {
	id := semantic.Column{Name: "id", Type: quarry.TypeInt}
	m := &semantic.Model{
		Entities: []semantic.Entity{
			{Name: "staff", PrimaryKey: "id", Columns: []semantic.Column{id, {Name: "name", Type: quarry.TypeText}}},
			{Name: "refund_requests", PrimaryKey: "id", Columns: []semantic.Column{id, {Name: "approved_by", Type: quarry.TypeInt}, {Name: "status", Type: quarry.TypeText, Values: []string{"approved", "rejected"}}}},
		},
		Relationships: []semantic.Relationship{{Name: "approved_by", From: "refund_requests", FromColumn: "approved_by", To: "staff", ToColumn: "id", Cardinality: semantic.ManyToOne}},
		Metrics:       []semantic.Metric{{Name: "count_refund_requests", Entity: "refund_requests", Expr: "COUNT(refund_requests.id)"}},
	}
	q := &semantic.Query{Metrics: []string{"count_refund_requests"}, Filters: []semantic.Filter{
		{Field: "staff.name", Op: semantic.OpEq, Values: []any{"Helga Brandt"}},
		{Field: "refund_requests.status", Op: semantic.OpEq, Values: []any{"approved"}},
	}}
	for _, c := range verify.Coverage("how many refund requests were approved by Helga Brandt", "2026-06-30", m, q) {
		if c.Status == verify.Fail {
			t.Errorf("%s failed: %s", c.Name, c.Detail)
		}
	}
}
