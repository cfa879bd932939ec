package auth

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// TestScopedPrefixesShowNoHiddenRun: a run ID prefix is resolved among the
// runs a person may read (their own and those shared with them), so that
// whether someone else's run takes a prefix never shows; a share with
// "bob " is taken back by "bob ".
func TestScopedPrefixesShowNoHiddenRun(t *testing.T) {
	st, now, _ := people(t)
	ctx := context.Background()
	for _, r := range []struct{ id, owner string }{{"r_01ABC1hidden", "carol"}, {"r_01ABC2shared", "bob"}} {
		rec := event.NewRecorder(r.id, func() time.Time { return now }, st)
		if err := rec.Emit(event.WithOwner(ctx, r.owner), &event.RunStartedData{Kind: "ask", Question: "q", Owner: r.owner}); err != nil {
			t.Fatal(err)
		}
	}
	bob := NewContext(ctx, Person{Name: "bob", Role: Analyst})
	sc := Scope(st)
	if err := sc.ShareRun(bob, store.Share{RunID: "r_01ABC2shared", With: "vic", At: now}); err != nil {
		t.Fatal(err)
	}
	vic := NewContext(ctx, Person{Name: "vic", Role: Viewer})
	for _, prefix := range []string{"r_01ABC", "r_01ABC2", "r_01ABC2shared"} {
		if run, err := sc.Run(vic, prefix); err != nil || run.RunID != "r_01ABC2shared" {
			t.Errorf("vic reads %q: %q, %v", prefix, run.RunID, err)
		}
	}
	for _, id := range []string{"r_01ABC1", "r_01ABC1hidden"} {
		if _, err := sc.Run(vic, id); quarry.KindOf(err) != quarry.KindNotFound {
			t.Errorf("vic reads the hidden %q: %v", id, err)
		}
	}
	if err := sc.UnshareRun(bob, "r_01ABC2shared", "vic "); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Run(vic, "r_01ABC2shared"); quarry.KindOf(err) != quarry.KindNotFound {
		t.Errorf("vic reads the run after the share was taken back: %v", err)
	}
}

// brokenRuns is a state whose runs cannot be read, as the server's is
// while its knowledge folder does not load.
type brokenRuns struct{ store.State }

func (brokenRuns) Run(context.Context, string) (event.RunState, error) {
	return event.RunState{}, quarry.Errorf(quarry.KindConfig, "knowledge/policy.yaml:3: no column employees.title")
}

// TestScopedResultSaysWhyItCannotRead: a result read while the runs cannot
// be read gets that error, not "no result" (found from outside: 404
// while the knowledge folder did not load, 200 once it did).
func TestScopedResultSaysWhyItCannotRead(t *testing.T) {
	st, _, _ := people(t)
	bob := NewContext(context.Background(), Person{Name: "bob", Role: Analyst})
	if _, err := Scope(brokenRuns{st}).Result(bob, "res_r_01ABC"); quarry.KindOf(err) != quarry.KindConfig {
		t.Errorf("a result read while runs cannot be: %v; want the config error", err)
	}
}
