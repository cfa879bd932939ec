package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCoverageManagerWords: words a manager uses for what the query does
// (a superlative after "what's our", "trending", "percentage of", values
// in their plural set against each other) are
// read as the query's shape and measure, and the same words do not let a
// misreading pass.
func TestCoverageManagerWords(t *testing.T) {
	m := coverageModel()
	m.Metrics = append(m.Metrics, semantic.Metric{Name: "share_of_revenue", Entity: "orders",
		Expr:    "SUM(CASE WHEN orders.channel = 'web' THEN orders.total ELSE 0 END) * 1.0 / NULLIF(SUM(orders.total), 0)",
		Filters: []string{"orders.status = 'completed'"}, Format: "percent"})
	m.Entities[0].Columns = append(m.Entities[0].Columns, semantic.Column{Name: "segment", Type: quarry.TypeText, Values: []string{"consumer", "business"}})
	m.Dimensions = append(m.Dimensions, semantic.Dimension{Name: "segment", Entity: "customers", Expr: "customers.segment"})
	segments := semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "segment"}},
		Filters: []semantic.Filter{{Field: "segment", Op: semantic.OpIn, Values: []any{"consumer", "business"}}}}
	y2026 := &semantic.TimeRange{From: "2026-01-01", To: "2026-07-01"}
	for _, tc := range []struct {
		question string
		q        semantic.Query
		fail     string // a fragment of a failing check's detail; "" when every check passes
	}{
		{"what's our cheapest order", semantic.Query{Rows: &semantic.RowsQuery{Entity: "orders"}, Order: []semantic.Order{{Field: "orders.total"}}, Limit: 1}, ""},
		{"what's our biggest order", semantic.Query{Rows: &semantic.RowsQuery{Entity: "orders"}, Order: []semantic.Order{{Field: "orders.total", Desc: true}}, Limit: 1}, ""},
		{"what's our revenue", semantic.Query{Rows: &semantic.RowsQuery{Entity: "orders"}}, "lists orders rows"},
		{"how is revenue trending this year", semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}}, TimeRange: y2026}, ""},
		{"how is revenue this year", semantic.Query{Metrics: []string{"revenue"}, Dimensions: []semantic.DimRef{{Name: "month", Grain: semantic.GrainMonth}}, TimeRange: y2026}, "does not ask for"},
		{"what percentage of revenue comes from web", semantic.Query{Metrics: []string{"share_of_revenue"}}, ""},
		{"what percentage of revenue comes from web", semantic.Query{Metrics: []string{"orders"}}, "revenue"},
		// Values set against each other in their plural.
		{"revenue from consumers vs businesses", segments, ""},
		{"revenue from consumers and businesses", segments, "does not ask for"},
	} {
		t.Run(tc.question, func(t *testing.T) {
			var failed []string
			for _, c := range Coverage(tc.question, "2026-06-30", m, &tc.q) {
				if c.Status == Fail {
					failed = append(failed, c.Name+": "+c.Detail)
				}
			}
			switch {
			case tc.fail == "" && len(failed) > 0:
				t.Errorf("a right reading failed: %v", failed)
			case tc.fail != "" && !strings.Contains(strings.Join(failed, "; "), tc.fail):
				t.Errorf("the misreading passed; want a failure naming %q, got %v", tc.fail, failed)
			}
		})
	}
}
