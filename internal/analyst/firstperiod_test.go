package analyst

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
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
	// Sorted by the measure without a limit, the periods are ranked too.
	sorted := *q
	sorted.Limit = 0
	if c := newAnalyst(first("2023-07-01")).FirstPeriodCheck(context.Background(), k.Model, &sorted, answer("2023-01-01")); !strings.Contains(c.Detail, "ranked as if it were whole") {
		t.Errorf("a breakdown sorted by the measure: %+v", c)
	}
	// A series in time order: worded as the series' cut periods, which
	// the answer leaves out of its change.
	series := sorted
	series.Order = nil
	c = newAnalyst(first("2023-07-01")).FirstPeriodCheck(context.Background(), k.Model, &series, answer("2023-01-01"))
	if d := verify.PartialDays([]verify.Check{c}); len(d) != 1 || d[0].Format("2006-01-02") != "2023-07-01" {
		t.Errorf("a series: %+v", c)
	}
	// Compared periods: one that starts before the data is named.
	compared := semantic.Query{Metrics: []string{"orders"}, Compare: []semantic.Period{{Label: "2023", From: "2023-01-01", To: "2024-01-01"}, {Label: "2024", From: "2024-01-01", To: "2025-01-01"}}}
	c = newAnalyst(first("2023-07-01")).FirstPeriodCheck(context.Background(), k.Model, &compared, answer("2023"))
	if got := verify.CutCompared([]verify.Check{c}); len(got) != 1 || got[0] != "2023" {
		t.Errorf("compared periods: %+v", c)
	}
	if c := newAnalyst(first("2023-01-01")).FirstPeriodCheck(context.Background(), k.Model, &compared, answer("2023")); c.Name != "" {
		t.Errorf("compared periods within the data: %+v", c)
	}
}
