package planner

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// shareModel is the test model with a count of some orders
// (refunded_orders) and a rate named so (refund_rate).
func shareModel() *semantic.Model {
	m := testModel()
	m.Metrics = append(m.Metrics,
		semantic.Metric{Name: "refunded_orders", Synonyms: []string{"refunds"}, Entity: "orders", Expr: "COUNT(orders.id)", Filters: []string{"orders.status = 'refunded'"}, Format: "integer"},
		semantic.Metric{Name: "refund_rate", Derived: "{refunded_orders} / {orders}", Format: "percent"})
	return m
}

// shareReading says how a plan reads a share: "rate" (a condition's share
// within each group), "parts" (each group's part of the total), "ask" (a
// clarification) or "refuse".
func shareReading(pl *Plan) string {
	switch {
	case pl.Kind == KindClarify:
		return "ask"
	case pl.Kind != KindMetric || pl.Query == nil:
		return "refuse"
	case pl.Query.Share:
		return "parts"
	case len(pl.AdHoc) == 1 && strings.HasPrefix(pl.AdHoc[0].Name, "share_of_"),
		len(pl.Query.Metrics) == 1 && pl.Query.Metrics[0] == "refund_rate":
		return "rate"
	}
	return "other"
}

// TestShareReadings: a share of some rows by a grouping ("percentage of
// refunded orders by channel") is the rate within each group as well as
// each group's part of those rows, and quarry asks which, with the two
// readings as questions it answers; where the words settle it, it answers.
func TestShareReadings(t *testing.T) {
	p := New(shareModel(), nil)
	for _, tt := range []struct{ q, want string }{
		// Both readings fit: asked.
		{"percentage of refunded orders by channel", "ask"},
		{"percent of refunded orders by channel", "ask"},
		{"share of refunded orders by channel", "ask"},
		{"proportion of refunded orders by channel", "ask"},
		{"% of refunded orders by channel", "ask"},
		{"what percentage of refunded orders by channel", "ask"},
		{"percentage of refunded orders per channel", "ask"},
		{"percentage of refunded orders for each channel", "ask"},
		{"share of refunded orders by channel in 2025", "ask"},
		{"share of refunded orders by month", "ask"},
		{"share of refunded orders by channel for business customers", "ask"},
		{"percentage of mobile orders by country", "ask"},
		{"share of cancelled orders by channel", "ask"},
		// The parts: no condition, or words that say so.
		{"share of revenue by channel", "parts"},
		{"percentage of orders by channel", "parts"},
		{"percentage split of refunded orders by channel", "parts"},
		{"refunded orders mix by channel", "parts"},
		{"share of all refunded orders by channel", "parts"},
		{"what percent of refunded orders came from each channel", "parts"},
		{"which channel has the largest share of refunded orders", "parts"},
		{"share of orders by channel for business customers", "parts"},
		{"share of UK orders by channel", "parts"}, // the UK's orders, split by channel
		// The rate: a condition within each group, or the rate by name.
		{"refund rate by channel", "rate"},
		{"what share of orders were refunded in each channel", "rate"},
		{"what percentage of orders were refunded by channel", "rate"},
		{"percent of orders refunded by country", "rate"},
		{"mobile share of orders by country", "rate"},
		// Neither settled nor askable: refused.
		{"which channel has the highest share of refunded orders", "refuse"},
		{"refunded orders share by channel", "refuse"},
		{"refund % by channel", "refuse"},
	} {
		t.Run(tt.q, func(t *testing.T) {
			pl := p.Plan(tt.q, asOf)
			got := shareReading(pl)
			if got != tt.want {
				t.Fatalf("read as %s (%s %s %v); want %s", got, pl.Kind, pl.Reason, pl.Understood, tt.want)
			}
			if got != "ask" {
				return
			}
			// The options are the two readings, each a question quarry
			// answers so, in that order.
			if len(pl.Options) != 2 || !strings.Contains(pl.Question, "within each") || !strings.Contains(pl.Question, "part of all") {
				t.Fatalf("question %q, options %q", pl.Question, pl.Options)
			}
			for i, want := range []string{"rate", "parts"} {
				if r := shareReading(p.Plan(pl.Options[i], asOf)); r != want {
					t.Errorf("option %q reads as %s; want %s", pl.Options[i], r, want)
				}
			}
		})
	}
}
