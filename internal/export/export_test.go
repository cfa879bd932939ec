package export

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
)

func TestJudge(t *testing.T) {
	orig := event.RunState{RunID: "r_1", SQL: "SELECT 1", ResultHash: "sha256:a", Rows: 1, Knowledge: "k1"}
	ok := func(hash string) event.RunState {
		return event.RunState{RunID: "r_2", Status: event.StatusSucceeded, ResultHash: hash, Rows: 1}
	}
	for _, tt := range []struct {
		name      string
		again     event.RunState
		knowledge string
		plan      string
		want      []string
	}{
		{"same", ok("sha256:a"), "k1", "", []string{"same result"}},
		{"data", ok("sha256:b"), "k1", "", []string{"the data changed"}},
		{"knowledge and plan", ok("sha256:a"), "k2", "SELECT 2", []string{"same result", "knowledge folder changed", "different SQL, after the knowledge changed"}},
		{"planner", ok("sha256:a"), "k1", "SELECT 2", []string{"quarry's planner changed"}},
		{"same plan, other spacing", ok("sha256:a"), "k1", "SELECT  1;", []string{"runs the same SQL"}},
		{"failed", event.RunState{RunID: "r_2", Status: event.StatusFailed, Error: "no such table"}, "k1", "", []string{"did not run again: no such table"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Judge(orig, tt.again, tt.knowledge, tt.plan)
			got := strings.Join(r.Verdict, "; ")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("verdict %q lacks %q", got, w)
				}
			}
			if r.Same != (tt.again.ResultHash == orig.ResultHash) {
				t.Errorf("Same = %v", r.Same)
			}
		})
	}
}
