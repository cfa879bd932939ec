package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// The retention part of the suite: Prune deletes finished runs whole.

func pruneFixture(t *testing.T, s store.State) {
	ctx := context.Background()
	for i := range 4 {
		Record(t, s, fmt.Sprintf("r_%d", i), "ask", T0.Add(time.Duration(i)*time.Hour), true)
	}
	Record(t, s, "r_live", "ask", T0, false)
	for range 2 {
		if _, _, err := s.SaveResult(ctx, "r_0", &quarry.Table{Columns: []quarry.Column{{Name: "n"}}, Rows: [][]any{{int64(1)}}}); err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range []string{"s_old", "s_ask", "s_new"} {
		if err := s.CreateSession(ctx, store.Session{ID: id, CreatedAt: T0.Add(time.Duration(i*3) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
}

func runIDs(t *testing.T, s store.State) []string {
	runs, err := s.Runs(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.RunID)
	}
	return ids
}

func testPruneDeletesWholeFinishedRuns(t *testing.T, s store.State) {
	ctx := context.Background()
	pruneFixture(t, s)
	_, err := s.Prune(ctx, store.PruneOptions{})
	WantKind(t, err, quarry.KindUsage)

	var archived []store.ArchivedRun
	rep, err := s.Prune(ctx, store.PruneOptions{Before: T0.Add(90 * time.Minute), Archive: func(batch []store.ArchivedRun) error {
		archived = append(archived, batch...)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	// r_0 and r_1 finished before 01:30; r_live never finished and stays.
	if diff := cmp.Diff(store.PruneReport{Runs: 2, Events: 10, Results: 2, Sessions: 1}, rep); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"r_3", "r_2", "r_live"}, runIDs(t, s)); diff != "" {
		t.Errorf("runs left (-want +got):\n%s", diff)
	}
	if len(archived) != 2 || archived[0].RunID != "r_0" || len(archived[0].Events) != 5 || len(archived[0].Results) != 2 {
		t.Fatalf("archived = %+v", archived)
	}
	for _, r := range archived[0].Results {
		if store.Hash(r.Body) != r.Hash {
			t.Errorf("archived result %s: body does not match its hash", r.ID)
		}
		if _, err := quarry.DecodeTable(r.Body); err != nil {
			t.Errorf("archived result %s does not decode: %v", r.ID, err)
		}
	}
	_, err = s.Events(ctx, "r_0")
	WantKind(t, err, quarry.KindNotFound)
	_, err = s.Result(ctx, store.ResultID("r_0", 1))
	WantKind(t, err, quarry.KindExpired) // gone with its run: 410, not 404
	_, err = s.Result(ctx, store.ResultID("r_0", 2))
	WantKind(t, err, quarry.KindExpired)
	// A pruned run's log is closed: a late event cannot reopen it.
	late, err := event.New("r_0", 6, T0.Add(5*time.Hour), &event.SQLGeneratedData{SQL: "SELECT 2", Source: "user"})
	if err != nil {
		t.Fatal(err)
	}
	WantKind(t, s.Append(ctx, late), quarry.KindConflict)
	// s_old had no runs and was last updated before the cutoff; s_ask still
	// has runs; s_new is newer.
	list, err := s.Sessions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var sids []string
	for _, x := range list {
		sids = append(sids, x.ID)
	}
	if diff := cmp.Diff([]string{"s_new", "s_ask"}, sids); diff != "" {
		t.Errorf("sessions left (-want +got):\n%s", diff)
	}
	// Pruning again with the same cutoff finds nothing more.
	rep, err = s.Prune(ctx, store.PruneOptions{Before: T0.Add(90 * time.Minute)})
	if err != nil || rep != (store.PruneReport{}) {
		t.Errorf("second prune = %+v, %v; want nothing", rep, err)
	}
	// A cutoff in the future takes every finished run, never the live one.
	if _, err := s.Prune(ctx, store.PruneOptions{Before: T0.Add(1000 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"r_live"}, runIDs(t, s)); diff != "" {
		t.Errorf("runs left (-want +got):\n%s", diff)
	}
	// The live run still takes events.
	next, err := event.New("r_live", 5, T0.Add(2000*time.Hour), &event.RunFinishedData{Status: event.StatusSucceeded})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, next); err != nil {
		t.Errorf("a run left by prune takes no event: %v", err)
	}
}

func testPruneArchiveFailureKeepsRuns(t *testing.T, s store.State) {
	ctx := context.Background()
	pruneFixture(t, s)
	_, err := s.Prune(ctx, store.PruneOptions{Before: T0.Add(10 * time.Hour), Archive: func(batch []store.ArchivedRun) error {
		return errors.New("disk full")
	}})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v; want the archive's failure", err)
	}
	// Nothing is deleted unless it was archived.
	if got := runIDs(t, s); len(got) != 5 {
		t.Errorf("runs left = %v; a failed archive must keep its runs", got)
	}
}

func testPruneDryRun(t *testing.T, s store.State) {
	ctx := context.Background()
	pruneFixture(t, s)
	rep, err := s.Prune(ctx, store.PruneOptions{Before: T0.Add(90 * time.Minute), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != 2 || rep.Events != 10 || rep.Results != 2 {
		t.Errorf("dry run report = %+v", rep)
	}
	if got := runIDs(t, s); len(got) != 5 {
		t.Errorf("a dry run deleted runs: %v left", got)
	}
}

// testPruneKeepsRunsWaitingForResults: a manual-mode run that proposed a
// query and waits for its pasted results has a run.finished, but has not
// finished for good; retention keeps it, and it can still go on.
func testPruneKeepsRunsWaitingForResults(t *testing.T, s store.State) {
	ctx := context.Background()
	r := event.NewRecorder("r_wait", Clock(T0), s)
	for _, p := range []event.Payload{
		&event.RunStartedData{Kind: "ask", Question: "revenue by country"},
		&event.QueryProposedData{SQL: "SELECT 1"},
		&event.RunFinishedData{Status: event.StatusAwaitingResults},
	} {
		if err := r.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := s.Prune(ctx, store.PruneOptions{Before: T0.Add(1000 * time.Hour)})
	if err != nil || rep.Runs != 0 {
		t.Fatalf("prune = %+v, %v; a run waiting for results was deleted", rep, err)
	}
	if err := r.Emit(ctx, &event.RunFinishedData{Status: event.StatusSucceeded}); err != nil {
		t.Fatalf("the waiting run cannot go on: %v", err)
	}
	rep, err = s.Prune(ctx, store.PruneOptions{Before: T0.Add(1000 * time.Hour)})
	if err != nil || rep.Runs != 1 {
		t.Errorf("prune once it finished = %+v, %v; want it deleted", rep, err)
	}
}
