package planner

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestIgnoredWords: the words the planner reads past, other than function
// words, are listed with the plan, so that a reader sees what did not
// shape the query.
func TestIgnoredWords(t *testing.T) {
	p := New(testModel(), nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for q, want := range map[string][]string{
		"how many orders were placed in 2025":          {"placed"},
		"revenue currently in 2025 thanks":             {"currently"},
		"revenue in 2025":                              nil,
		"how many orders came through the web channel": {"came", "through"},
		"what is the revenue in 2025, roughly":         {"roughly"},
		"how many orders did we actually get, still":   {"actually", "still"},
	} {
		pl := p.Plan(q, asOf)
		if pl.Kind != KindMetric {
			t.Errorf("%q: %s %s", q, pl.Kind, pl.Reason)
			continue
		}
		if diff := cmp.Diff(want, pl.Ignored); diff != "" {
			t.Errorf("%q ignored (-want +got):\n%s", q, diff)
		}
	}
}
