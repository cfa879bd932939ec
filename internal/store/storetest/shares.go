package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// testShares: a run shared with a person or a group is listed with the
// runs of anyone it is shared with (and only then), sharing twice keeps
// one share, a share taken back is gone, and pruning a run takes its
// shares with it.
func testShares(t *testing.T, s store.State) {
	ctx := context.Background()
	for i, who := range []struct{ id, owner string }{{"r_a1", "ana"}, {"r_b1", "ben"}, {"r_b2", "ben"}, {"r_c1", "cy"}} {
		if _, err := recordAs(s, who.id, "ask", T0.Add(time.Duration(i)*time.Minute), true,
			&event.RunStartedData{Kind: "ask", Question: "q", Owner: who.owner}); err != nil {
			t.Fatal(err)
		}
	}
	for _, sh := range []store.Share{
		{RunID: "r_b1", With: "ana", By: "ben", At: T0},
		{RunID: "r_b1", With: "ana", By: "ben", At: T0.Add(time.Hour)}, // again: kept once
		{RunID: "r_c1", With: "group:support", By: "cy", At: T0.Add(time.Minute)},
	} {
		if err := s.ShareRun(ctx, sh); err != nil {
			t.Fatal(err)
		}
	}
	WantKind(t, s.ShareRun(ctx, store.Share{RunID: "r_c1", At: T0}), quarry.KindInternal)
	ids := func(f store.RunFilter) []string {
		runs, err := s.Runs(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range runs {
			out = append(out, r.RunID)
		}
		return out
	}
	for _, tt := range []struct {
		f    store.RunFilter
		want []string
	}{
		{store.RunFilter{Owner: "ana"}, []string{"r_a1"}},
		{store.RunFilter{Owner: "ana", SharedWith: []string{"ana"}}, []string{"r_b1", "r_a1"}},
		{store.RunFilter{Owner: "ana", SharedWith: []string{"ana", "group:support"}}, []string{"r_c1", "r_b1", "r_a1"}},
		{store.RunFilter{Owner: "dee", SharedWith: []string{"dee", "group:sales"}}, nil},
		{store.RunFilter{Owner: "ana", SharedWith: []string{"ana"}, Limit: 1}, []string{"r_b1"}},
	} {
		if diff := cmp.Diff(tt.want, ids(tt.f)); diff != "" {
			t.Errorf("Runs(%+v) (-want +got):\n%s", tt.f, diff)
		}
	}
	got, err := s.RunShares(ctx, "r_b1")
	if diff := cmp.Diff([]store.Share{{RunID: "r_b1", With: "ana", By: "ben", At: T0}}, got); err != nil || diff != "" {
		t.Errorf("RunShares(r_b1) (-want +got):\n%s %v", diff, err)
	}
	if err := s.UnshareRun(ctx, "r_b1", "ana"); err != nil {
		t.Fatal(err)
	}
	if err := s.UnshareRun(ctx, "r_b1", "nobody"); err != nil {
		t.Errorf("unsharing what was not shared: %v", err)
	}
	if got, err := s.RunShares(ctx, "r_b1"); err != nil || len(got) != 0 {
		t.Errorf("after unsharing: %v, %v", got, err)
	}
	if _, err := s.Prune(ctx, store.PruneOptions{Before: T0.Add(time.Hour), Archive: func([]store.ArchivedRun) error { return nil }}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.RunShares(ctx, "r_c1"); err != nil || len(got) != 0 {
		t.Errorf("a pruned run's shares: %v, %v", got, err)
	}
}
