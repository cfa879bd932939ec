package planner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// filtersText is a query's filters as "field op values", joined by "; ".
func filtersText(q *semantic.Query) string {
	var got []string
	for _, f := range q.Filters {
		got = append(got, strings.TrimSpace(fmt.Sprintf("%s %s %s", f.Field, f.Op, fmt.Sprint(f.Values...))))
	}
	return strings.Join(got, "; ")
}

// checkFilters reports a plan of question whose filters lack one of want
// or hold one of not, each a part of filtersText.
func checkFilters(t *testing.T, question string, pl *Plan, want, not []string) {
	t.Helper()
	if pl.Query == nil {
		t.Errorf("%q: %s %q", question, pl.Kind, pl.Reason)
		return
	}
	all := filtersText(pl.Query)
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("%q: filters %s; want %q", question, all, w)
		}
	}
	for _, w := range not {
		if strings.Contains(all, w) {
			t.Errorf("%q: filters %s; want none on %q", question, all, w)
		}
	}
}
