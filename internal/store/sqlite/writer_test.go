package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/storetest"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// pendingWrites waits until n writes wait for the turn.
func pendingWrites(t *testing.T, s *Store, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.w.mu.Lock()
		got := len(s.w.pending)
		s.w.mu.Unlock()
		if got == n {
			return
		}
	}
	t.Fatalf("fewer than %d writes queued", n)
}

func started(runID string, seq int64, question string) event.Event {
	return event.Event{RunID: runID, Seq: seq, Type: event.RunStarted, Version: event.Version, At: storetest.T0,
		Data: []byte(fmt.Sprintf(`{"kind":"ask","question":%q}`, question))}
}

// TestOneBatchKeepsEachWriteWhole: writes committed together succeed and
// fail one by one. A write that conflicts after it inserted part of its
// events is refused whole and alone; the writes around it are stored, and so is a session created in the same
// batch.
func TestOneBatchKeepsEachWriteWhole(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if err := s.Append(ctx, started("r_taken", 1, "first")); err != nil {
		t.Fatal(err)
	}

	s.w.turn <- struct{}{} // hold the turn while the batch gathers
	const n = 20
	errs := make([]error, n+2)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = s.Append(ctx, started(fmt.Sprintf("r_%02d", i), 1, "q")) })
	}
	// Its first event is new and inserted before the second conflicts:
	// neither may stay.
	wg.Go(func() { errs[n] = s.Append(ctx, started("r_half", 1, "q"), started("r_taken", 1, "another")) })
	wg.Go(func() {
		errs[n+1] = s.CreateSession(ctx, store.Session{ID: "s_1", Title: "t", CreatedAt: storetest.T0})
	})
	pendingWrites(t, s, n+2)
	<-s.w.turn
	wg.Wait()

	for i, err := range errs {
		switch {
		case i == n:
			storetest.WantKind(t, err, quarry.KindConflict)
		case err != nil:
			t.Errorf("write %d: %v", i, err)
		}
	}
	runs, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != n+1 {
		t.Errorf("%d runs stored, want %d", len(runs), n+1)
	}
	if st, err := s.Run(ctx, "r_taken"); err != nil || st.Question != "first" {
		t.Errorf("r_taken: %+v, %v; want its first question kept", st.Question, err)
	}
	var half int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM events WHERE run_id = 'r_half'`).Scan(&half); err != nil || half != 0 {
		t.Errorf("%d events of a refused write were stored (%v)", half, err)
	}
	if _, err := s.Session(ctx, "s_1"); err != nil {
		t.Errorf("the session written in the batch: %v", err)
	}
}

// TestAWriteGivenUpBeforeItsTurnIsNotWritten: a caller whose context ends
// while it waits gets the context's error, and nothing of it is stored.
func TestAWriteGivenUpBeforeItsTurnIsNotWritten(t *testing.T) {
	s := openTemp(t)
	s.w.turn <- struct{}{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Append(ctx, started("r_gone", 1, "q")) }()
	pendingWrites(t, s, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	<-s.w.turn
	if err := s.Append(context.Background(), started("r_next", 1, "q")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), "r_gone"); err == nil {
		t.Error("the given-up write was stored")
	}
	s.w.mu.Lock()
	defer s.w.mu.Unlock()
	if len(s.w.pending) != 0 {
		t.Errorf("%d writes left queued", len(s.w.pending))
	}
}

// TestAPanickingWriteFailsItsBatchOnly: a write that panics panics in its
// own caller's goroutine, whichever goroutine wrote the batch; the writes
// batched with it are answered (failed, nothing committed), and the
// writer is free for the next ones.
func TestAPanickingWriteFailsItsBatchOnly(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	s.w.turn <- struct{}{}
	other := make(chan error, 1)
	go func() { other <- s.Append(ctx, started("r_beside", 1, "q")) }()
	pendingWrites(t, s, 1)
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		s.inTx(ctx, func(context.Context, *txn) error { panic("boom") })
	}()
	pendingWrites(t, s, 2)
	<-s.w.turn
	if r := <-panicked; r == nil {
		t.Fatal("the panic was swallowed")
	}
	select {
	case err := <-other:
		if err == nil {
			t.Log("the write beside it was committed in an earlier batch")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write batched with the panic was never answered")
	}
	if err := s.Append(ctx, started("r_after", 1, "q")); err != nil {
		t.Fatalf("a write after the panic: %v", err)
	}
}
