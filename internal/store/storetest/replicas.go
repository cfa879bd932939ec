package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// The replicas part of the suite: heartbeats, running runs by status, and
// the one finish a run gets however many sweepers race to record it.

func testReplicas(t *testing.T, s store.State) {
	ctx := context.Background()
	r, ok := s.(store.Replicas)
	if !ok {
		t.Fatalf("%T does not implement store.Replicas", s)
	}
	if err := r.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct {
		id string
		at time.Time
	}{{"rep_a", T0}, {"rep_b", T0.Add(time.Second)}, {"rep_a", T0.Add(5 * time.Second)}} {
		if err := r.Heartbeat(ctx, b.id, b.at); err != nil {
			t.Fatal(err)
		}
	}
	got, err := r.Replicas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Time{"rep_a": T0.Add(5 * time.Second), "rep_b": T0.Add(time.Second)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replicas (-want +got):\n%s", diff)
	}
	if err := r.Leave(ctx, "rep_a"); err != nil {
		t.Fatal(err)
	}
	if got, err = r.Replicas(ctx); err != nil || len(got) != 1 || got["rep_b"].IsZero() {
		t.Errorf("after rep_a left: %v %v", got, err)
	}
}

func testRunsByStatus(t *testing.T, s store.State) {
	Record(t, s, "r_done", "ask", T0, true)
	Record(t, s, "r_live", "ask", T0.Add(time.Hour), false)
	runs, err := s.Runs(context.Background(), store.RunFilter{Status: event.StatusRunning})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.RunID)
	}
	if diff := cmp.Diff([]string{"r_live"}, ids); diff != "" {
		t.Errorf("running runs (-want +got):\n%s", diff)
	}
}

// testOneFinishPerSeq: several writers append a different run.finished
// at the same sequence number at once; exactly one is stored, the others
// get KindConflict.
func testOneFinishPerSeq(t *testing.T, s store.State) {
	evs := Record(t, s, "r_live", "ask", T0, false)
	next := evs[len(evs)-1].Seq + 1
	const writers = 8
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := event.New("r_live", next, T0.Add(time.Duration(i+1)*time.Millisecond), &event.RunFinishedData{Status: event.StatusFailed, Error: "gone"})
			if err != nil {
				errs[i] = err
				return
			}
			errs[i] = s.Append(context.Background(), e)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case quarry.KindOf(err) != quarry.KindConflict:
			t.Errorf("a losing writer got %v, want a conflict", err)
		}
	}
	if won != 1 {
		t.Errorf("%d writers stored run.finished, want 1", won)
	}
	st, err := s.Run(context.Background(), "r_live")
	if err != nil || st.Status != event.StatusFailed || st.Events != len(evs)+1 {
		t.Errorf("the run: %+v %v", st, err)
	}
}

// testNothingAfterTheEnd: a run whose log holds a final run.finished
// takes no more events, so a writer that lost the run (a replica swept as
// gone while its state was out of reach) cannot finish it a second time
// (found from outside: failed at seq 4, then succeeded at seq 5). Its own
// events stored again are not refused (a retried append), and a run that
// finished awaiting pasted results goes on.
func testNothingAfterTheEnd(t *testing.T, s store.State) {
	ctx := context.Background()
	evs := Record(t, s, "r_swept", "ask", T0, false)
	next := evs[len(evs)-1].Seq + 1
	at := T0.Add(time.Minute)
	swept, err := event.New("r_swept", next, at, &event.RunFinishedData{Status: event.StatusFailed, Error: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, swept); err != nil {
		t.Fatal(err)
	}
	late, _ := event.New("r_swept", next+1, at, &event.RunFinishedData{Status: event.StatusSucceeded})
	checks, _ := event.New("r_swept", next+1, at, &event.ChecksRanData{})
	for _, e := range []event.Event{late, checks} {
		WantKind(t, s.Append(ctx, e), quarry.KindConflict)
	}
	if err := s.Append(ctx, swept); err != nil {
		t.Errorf("the stored run.finished again: %v", err)
	}
	// A fix of the failed statement, asked for later, is recorded.
	fix, _ := event.New("r_swept", next+1, at.Add(time.Minute), &event.FixProposedData{SQL: "SELECT 1"})
	if err := s.Append(ctx, fix); err != nil {
		t.Errorf("a fix after the end: %v", err)
	}
	st, err := s.Run(ctx, "r_swept")
	if err != nil || st.Status != event.StatusFailed || st.LastSeq != next+1 {
		t.Errorf("the swept run: %+v %v; want failed, its log ending at %d", st, err, next+1)
	}

	evs = Record(t, s, "r_manual", "ask", T0, false)
	next = evs[len(evs)-1].Seq + 1
	waits, _ := event.New("r_manual", next, at, &event.RunFinishedData{Status: event.StatusAwaitingResults})
	pasted, _ := event.New("r_manual", next+1, at, &event.ResultsPastedData{Rows: 1})
	done, _ := event.New("r_manual", next+2, at, &event.RunFinishedData{Status: event.StatusSucceeded})
	if err := s.Append(ctx, waits, pasted, done); err != nil {
		t.Errorf("a run awaiting results goes on: %v", err)
	}
}
