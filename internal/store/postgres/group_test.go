package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/storetest"
)

// TestGroupWithAConflict holds the group while many runs open and
// sessions are created at once, so that all of them go in one batch, with
// a run whose first event is already stored differently and a session
// that already exists among them. The batch fails as a whole; each
// request then goes alone: the new ones are stored, the two others are
// refused as conflicts, and nothing stored before changes.
func TestGroupWithAConflict(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	t0 := time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)
	opening := func(runID, question string) event.Event {
		e, err := event.New(runID, 1, t0, &event.RunStartedData{Kind: "ask", Question: question})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	before := opening("r_01TAKEN", "revenue by month")
	if err := s.Append(ctx, before); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, store.Session{ID: "s_TAKEN", Title: "first", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}

	// Hold the group, once the flusher of the requests above has gone:
	// requests queue and no one flushes.
	for held := false; !held; time.Sleep(time.Millisecond) {
		s.group.mu.Lock()
		if !s.group.flushing {
			s.group.flushing, held = true, true
		}
		s.group.mu.Unlock()
	}
	const fresh = 20
	errs := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	do := func(name string, f func() error) {
		wg.Go(func() {
			err := f()
			mu.Lock()
			errs[name] = err
			mu.Unlock()
		})
	}
	for i := range fresh {
		id := fmt.Sprintf("r_01NEW%02d", i)
		do(id, func() error { return s.Append(ctx, opening(id, "orders per month")) })
		sid := fmt.Sprintf("s_NEW%02d", i)
		do(sid, func() error { return s.CreateSession(ctx, store.Session{ID: sid, Title: "q", CreatedAt: t0}) })
	}
	do("r_01TAKEN", func() error { return s.Append(ctx, opening("r_01TAKEN", "DROP TABLE orders")) })
	do("s_TAKEN", func() error {
		return s.CreateSession(ctx, store.Session{ID: "s_TAKEN", Title: "second", CreatedAt: t0})
	})
	want := 2*fresh + 2
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.group.mu.Lock()
		n := len(s.group.queue)
		s.group.mu.Unlock()
		if n == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests queued, want %d", n, want)
		}
	}
	go s.flushGroups()
	wg.Wait()

	for name, err := range errs {
		switch name {
		case "r_01TAKEN", "s_TAKEN":
			storetest.WantKind(t, err, quarry.KindConflict)
		default:
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	for i := range fresh {
		id := fmt.Sprintf("r_01NEW%02d", i)
		if evs, err := s.Events(ctx, id); err != nil || len(evs) != 1 {
			t.Errorf("run %s: %d events, %v", id, len(evs), err)
		}
		if _, err := s.Session(ctx, fmt.Sprintf("s_NEW%02d", i)); err != nil {
			t.Errorf("session %d: %v", i, err)
		}
	}
	runs, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != fresh+1 {
		t.Errorf("%d runs indexed, want %d", len(runs), fresh+1)
	}
	got, err := s.Events(ctx, "r_01TAKEN")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]event.Event{before}, got); diff != "" {
		t.Errorf("the run stored before changed (-before +after):\n%s", diff)
	}
	if sess, err := s.Session(ctx, "s_TAKEN"); err != nil || sess.Title != "first" {
		t.Errorf("the session stored before: %+v, %v", sess, err)
	}
}
