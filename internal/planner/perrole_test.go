package planner

import (
	"strings"
	"testing"
)

// TestAveragePerRole: an average per a role ("per director") is spread
// over the members of the table the role's link names, each once, not
// over every row of that table (found from outside: "average number of
// claims per adjuster" divided 2,650 claims by all 72 staff, 36.81 for
// 67.95, at 1.00).
func TestAveragePerRole(t *testing.T) {
	p := New(theatreModel(), nil)
	for q, want := range map[string]string{
		"average number of productions per director":      "COUNT(DISTINCT productions.director_id)",
		"average number of productions per stage manager": "COUNT(DISTINCT productions.stage_manager_id)",
	} {
		t.Run(q, func(t *testing.T) {
			pl := p.Plan(q, asOf)
			if pl.Query == nil || len(pl.Query.Metrics) != 1 {
				t.Fatalf("%s: %s %s %v", pl.Kind, pl.Reason, pl.Question, pl.Options)
			}
			var den string
			for _, a := range pl.AdHoc {
				if strings.HasPrefix(a.Name, "number_of_") {
					den = a.Expr
				}
			}
			if den != want {
				t.Errorf("divided by %q, want %q\n%v", den, want, pl.Understood)
			}
			if !strings.Contains(strings.Join(pl.Understood, "; "), "that are the") {
				t.Errorf("the reading does not say who is counted: %v", pl.Understood)
			}
		})
	}
}

// TestRoleGroupedOnce: a role named by its name and by its verb ("each
// director direct") is one grouping (found from outside: "how many
// claims did each reviewer review" grouped by reviewer.full_name twice).
func TestRoleGroupedOnce(t *testing.T) {
	p := New(theatreModel(), nil)
	for _, q := range []string{"how many productions did each director direct", "how many productions did each stage manager manage"} {
		pl := p.Plan(q, asOf)
		if pl.Query == nil || len(pl.Query.Dimensions) == 0 {
			t.Fatalf("%q: %s %s %s %v", q, pl.Kind, pl.Reason, pl.Question, pl.Options)
		}
		seen := map[string]bool{}
		for _, d := range pl.Query.Dimensions {
			if seen[d.Name] {
				t.Errorf("%q: grouped by %s twice: %v", q, d.Name, pl.Query.Dimensions)
			}
			seen[d.Name] = true
		}
	}
}
