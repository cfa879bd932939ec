package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestShareOfQualifiedRows: "what percentage of web orders were refunded"
// is refunded orders among web orders — the qualifier before the verb is
// the rows the share is of (a filter on both sides), the condition after
// it the numerator (found from outside: the qualifier went into the
// numerator and the share was of all orders).
func TestShareOfQualifiedRows(t *testing.T) {
	p := New(testModel(), nil)
	for _, tc := range []struct {
		q      string
		filter []semantic.Filter
		cond   string // in the ratio's numerator
		refuse bool
	}{
		{q: "what percentage of web orders were refunded", filter: []semantic.Filter{{Field: "channel", Op: semantic.OpEq, Values: []any{"web"}}}, cond: "'refunded'"},
		{q: "what percentage of orders were refunded", cond: "'refunded'"},
		{q: "what percentage of refunded orders were web", filter: []semantic.Filter{{Field: "orders.status", Op: semantic.OpEq, Values: []any{"refunded"}}}, cond: "'web'"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			pl := p.Plan(tc.q, asOf)
			if pl.Kind != KindMetric || len(pl.AdHoc) != 1 {
				t.Fatalf("%s %s %+v", pl.Kind, pl.Reason, pl.AdHoc)
			}
			if diff := cmp.Diff(tc.filter, pl.Query.Filters); diff != "" {
				t.Errorf("filters (-want +got):\n%s", diff)
			}
			if expr := pl.AdHoc[0].Expr; !strings.Contains(expr, "CASE WHEN") || !strings.Contains(strings.SplitN(expr, "NULLIF", 2)[0], tc.cond) {
				t.Errorf("numerator %s, want the condition %s", expr, tc.cond)
			}
		})
	}
}

// TestShareRateByGroup: "what percentage of orders were refunded by
// channel" is the refund rate in each channel (found from outside: it was
// each channel's part of all refunds); "share of orders by channel" is
// each channel's part of the total.
func TestShareRateByGroup(t *testing.T) {
	p := New(testModel(), nil)
	pl := p.Plan("what percentage of orders were refunded by channel", asOf)
	if pl.Kind != KindMetric || pl.Query.Share || len(pl.AdHoc) != 1 || !strings.Contains(pl.AdHoc[0].Expr, "'refunded'") || len(pl.Query.Dimensions) != 1 {
		t.Errorf("refund rate by channel: %s %q %+v %+v", pl.Kind, pl.Reason, pl.Query, pl.AdHoc)
	}
	pl = p.Plan("share of orders by channel", asOf)
	if pl.Kind != KindMetric || !pl.Query.Share {
		t.Errorf("share of orders by channel: %s %q %+v", pl.Kind, pl.Reason, pl.Query)
	}
}
