package event

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// memSink keeps appended events in memory, in arrival order.
type memSink struct {
	mu     sync.Mutex
	events []Event
}

func (m *memSink) Append(_ context.Context, events ...Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events = append(m.events, events...)
	return nil
}

func fixedClock() func() time.Time {
	var mu sync.Mutex
	now := t0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}
}

func TestRecorderNumbersEventsAndFolds(t *testing.T) {
	ctx := context.Background()
	sink := &memSink{}
	r := NewRecorder("r_rec", fixedClock(), sink)
	if r.RunID() != "r_rec" {
		t.Errorf("RunID = %q", r.RunID())
	}
	for _, p := range []Payload{
		&RunStartedData{Kind: "run", SQL: "SELECT 1"},
		&SQLGeneratedData{SQL: "SELECT 1", Source: "user"},
		&RunFinishedData{Status: StatusSucceeded},
	} {
		if err := r.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	var seqs []int64
	for _, e := range sink.events {
		seqs = append(seqs, e.Seq)
		if e.RunID != "r_rec" || e.Version != Version {
			t.Errorf("event %+v lacks run ID or version", e)
		}
	}
	if diff := cmp.Diff([]int64{1, 2, 3}, seqs); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
	st, err := Fold(sink.events)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != StatusSucceeded || st.Duration != 2*time.Millisecond {
		t.Errorf("state = %+v", st)
	}
}

func TestRecorderConcurrentEmitsKeepOrder(t *testing.T) {
	ctx := context.Background()
	sink := &memSink{}
	r := NewRecorder("r_conc", fixedClock(), sink)
	const workers, each = 8, 50
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				if err := r.Emit(ctx, &SQLGeneratedData{SQL: "SELECT 1"}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if len(sink.events) != workers*each {
		t.Fatalf("%d events, want %d", len(sink.events), workers*each)
	}
	// Events reach the sink in sequence order with no gaps or repeats.
	for i, e := range sink.events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	if !slices.IsSortedFunc(sink.events, func(a, b Event) int { return a.At.Compare(b.At) }) {
		t.Error("timestamps are out of sequence order")
	}
}

func TestResumeRecorderContinuesSequence(t *testing.T) {
	sink := &memSink{}
	r := ResumeRecorder("r_res", 7, fixedClock(), sink)
	if err := r.Emit(context.Background(), &RunFinishedData{Status: StatusSucceeded}); err != nil {
		t.Fatal(err)
	}
	if sink.events[0].Seq != 8 {
		t.Errorf("seq = %d, want 8", sink.events[0].Seq)
	}
}

func TestMultiSinkReachesEverySink(t *testing.T) {
	ctx := context.Background()
	a, b := &memSink{}, &memSink{}
	boom := errors.New("disk full")
	failing := SinkFunc(func(context.Context, ...Event) error { return boom })
	m := MultiSink(a, nil, failing, b)
	e := mustNew(t, 1, &RunStartedData{Kind: "ask"})
	err := m.Append(ctx, e)
	if !errors.Is(err, boom) {
		t.Errorf("error = %v, want the failing sink's", err)
	}
	if len(a.events) != 1 || len(b.events) != 1 {
		t.Errorf("sinks got %d and %d events, want 1 and 1", len(a.events), len(b.events))
	}
	if err := MultiSink(a).Append(ctx, e); err != nil {
		t.Errorf("healthy MultiSink: %v", err)
	}
}

func TestEmitUsesUpSequenceOnSinkFailure(t *testing.T) {
	ctx := context.Background()
	fail := true
	var got []Event
	sink := SinkFunc(func(_ context.Context, es ...Event) error {
		if fail {
			return errors.New("busy")
		}
		got = append(got, es...)
		return nil
	})
	r := NewRecorder("r_f", fixedClock(), sink)
	if err := r.Emit(ctx, &RunStartedData{Kind: "run"}); err == nil {
		t.Fatal("Emit hid the sink's error")
	}
	fail = false
	if err := r.Emit(ctx, &RunStartedData{Kind: "run"}); err != nil {
		t.Fatal(err)
	}
	if got[0].Seq != 2 {
		t.Errorf("seq after a failed append = %d, want 2", got[0].Seq)
	}
}
