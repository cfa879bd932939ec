package analyst

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestFirstPeriodCheck: a ranking of years that answers with the first
// year of the data warns when the data starts after that year's first
// day ("worst year for revenue" named 2023, whose orders start in July);
// a later year, or a first year that is whole, passes silently.
func TestFirstPeriodCheck(t *testing.T) {
	k := shopKnowledge()
	k.Model.Metrics[0].Time = "orders.ordered_at"
	q := &semantic.Query{Metrics: []string{"orders"}, Dimensions: []semantic.DimRef{{Name: "year", Grain: semantic.GrainYear}},
		Order: []semantic.Order{{Field: "orders"}}, Limit: 1}
	answer := func(year string) *Result {
		return &Result{Table: &quarry.Table{Columns: []quarry.Column{{Name: "year", Type: quarry.TypeText}, {Name: "orders", Type: quarry.TypeInt}},
			Rows: [][]any{{year, int64(5)}}}}
	}
	first := func(day string) *fakeConn {
		return &fakeConn{table: &quarry.Table{Columns: []quarry.Column{{Name: firstPeriodName, Type: quarry.TypeText}}, Rows: [][]any{{day}}}}
	}
	conn := first("2023-07-01 10:00:00")
	c := newAnalyst(conn).FirstPeriodCheck(context.Background(), k.Model, q, answer("2023-01-01"))
	if c.Status != "warn" || !strings.Contains(c.Detail, "starts on 2023-07-01") || len(conn.calls) != 1 || !strings.Contains(c.Detail, conn.calls[0]) {
		t.Errorf("the first year, partial: %+v (sent %q)", c, conn.calls)
	}
	if c := newAnalyst(first("2023-07-01")).FirstPeriodCheck(context.Background(), k.Model, q, answer("2025-01-01")); c.Name != "" {
		t.Errorf("a later year: %+v", c)
	}
	if c := newAnalyst(first("2023-01-01")).FirstPeriodCheck(context.Background(), k.Model, q, answer("2023-01-01")); c.Name != "" {
		t.Errorf("a whole first year: %+v", c)
	}
	unranked := *q
	unranked.Limit = 0
	if c := newAnalyst(first("2023-07-01")).FirstPeriodCheck(context.Background(), k.Model, &unranked, answer("2023-01-01")); c.Name != "" {
		t.Errorf("a breakdown, not a ranking: %+v", c)
	}
}
