package eval

import (
	"testing"

	"github.com/quarrydata/quarry/internal/planner"
)

func TestGapOf(t *testing.T) {
	for _, tc := range []struct {
		kind string
		pl   *planner.Plan
		msg  string
		want string
	}{
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered, Unknown: []string{"ordered", "never"}}, "", GapNegation},
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered, Unknown: []string{"both"}}, "", GapSetOp},
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered, Unknown: []string{"between", "160000"}}, "", GapComparison},
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered, Unknown: []string{"80000"}}, "", GapNumber},
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered, Unknown: []string{"injuries"}, Suggestions: []string{"injured"}}, "", GapWordForm},
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered, Unknown: []string{"toll"}, Suggestions: []string{"killed"}}, "", GapVocabulary},
		{OutcomeClarify, &planner.Plan{Kind: planner.KindClarify}, "", GapClarify},
		{OutcomeRefused, &planner.Plan{Kind: planner.KindRefuse}, `"delete" asks to change data`, GapWrite},
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered}, "airlines is not a single related row of each flights row", GapJoin},
		{OutcomeUnanswered, &planner.Plan{Kind: planner.KindUnanswered}, "poker player has no label column to name its rows", GapLabel},
		{OutcomeUnanswered, nil, "something else", GapOther},
	} {
		if got := gapOf(tc.kind, tc.pl, tc.msg); got != tc.want {
			t.Errorf("gapOf(%s, %+v, %q) = %s, want %s", tc.kind, tc.pl, tc.msg, got, tc.want)
		}
	}
}
