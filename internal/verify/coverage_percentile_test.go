package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestCoveragePercentile holds a query to the median or percentile the
// question asks for, and to none when it asks for none.
func TestCoveragePercentile(t *testing.T) {
	m := coverageModel()
	m.Metrics = append(m.Metrics, semantic.Metric{Name: "average_order_total", Entity: "orders", Expr: "AVG(orders.total)"})
	byChannel := []semantic.DimRef{{Name: "channel"}}
	for _, tc := range []struct {
		question string
		q        semantic.Query
		fail     string // a word of the failing detail; "" when the check passes
	}{
		{"median order total", semantic.Query{Metrics: []string{"average_order_total"}, Percentile: 50}, ""},
		{"what is the middle value of the order total", semantic.Query{Metrics: []string{"average_order_total"}, Percentile: 50}, ""},
		{"90th percentile of order total by channel", semantic.Query{Metrics: []string{"average_order_total"}, Dimensions: byChannel, Percentile: 90}, ""},
		{"p90 order total", semantic.Query{Metrics: []string{"average_order_total"}, Percentile: 90}, ""},
		{"median order total", semantic.Query{Metrics: []string{"average_order_total"}}, "not its median"},
		{"median revenue", semantic.Query{Metrics: []string{"revenue"}}, "not its median"},
		{"average order total", semantic.Query{Metrics: []string{"average_order_total"}, Percentile: 50}, "does not ask for"},
		{"p90 order total", semantic.Query{Metrics: []string{"average_order_total"}, Percentile: 50}, "takes the median"},
	} {
		t.Run(tc.question, func(t *testing.T) {
			detail := ""
			for _, c := range Coverage(tc.question, "2026-06-30", m, &tc.q) {
				if c.Status == Fail && c.Name == CheckCoverage {
					detail = c.Detail
				}
			}
			if tc.fail == "" && detail != "" || tc.fail != "" && !strings.Contains(detail, tc.fail) {
				t.Errorf("coverage failure %q; want %q", detail, tc.fail)
			}
		})
	}
}
