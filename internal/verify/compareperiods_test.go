package verify

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// TestComparedPeriodWithNoRows: a comparison whose result holds one of
// its two periods warns and names the one with no rows; with both, the
// row count passes.
func TestComparedPeriodWithNoRows(t *testing.T) {
	q := &semantic.Query{Metrics: []string{"loans"}, Compare: []semantic.Period{
		{Label: "the quarter before (Q2 2025)", From: "2025-04-01", To: "2025-07-01"},
		{Label: "last quarter (Q3 2025)", From: "2025-07-01", To: "2025-10-01"}}}
	cols := []quarry.Column{{Name: "period", Type: quarry.TypeText}, {Name: "loans", Type: quarry.TypeInt}}
	one := &quarry.Table{Columns: cols, Rows: [][]any{{"the quarter before (Q2 2025)", int64(170)}}}
	both := &quarry.Table{Columns: cols, Rows: [][]any{{"the quarter before (Q2 2025)", int64(170)}, {"last quarter (Q3 2025)", int64(3)}}}
	c := &semantic.Compiled{Columns: []semantic.OutColumn{{Name: "period", Role: semantic.RoleDimension}, {Name: "loans", Role: semantic.RoleMetric}}}
	find := func(r Report) Check {
		for _, k := range r.Checks {
			if k.Name == CheckRowCount {
				return k
			}
		}
		return Check{}
	}
	if got := find(Run(InputFor(nil, q, c, one, 1, false))); got.Status != Warn || !strings.Contains(got.Detail, "last quarter (Q3 2025) has no rows") {
		t.Errorf("one period: %+v", got)
	}
	if got := find(Run(InputFor(nil, q, c, both, 2, false))); got.Status != Pass {
		t.Errorf("both periods: %+v", got)
	}
}
