package event

import (
	"context"
	"testing"
	"time"
)

func TestHoldBatchesUntilFlush(t *testing.T) {
	var batches [][]Event
	sink := SinkFunc(func(_ context.Context, evs ...Event) error {
		batches = append(batches, evs)
		return nil
	})
	clock := func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	r := NewRecorder("r1", clock, sink)
	r.Hold()
	ctx := context.Background()
	r.Emit(ctx, &RunStartedData{Kind: "run"})
	r.Emit(ctx, &SQLGeneratedData{SQL: "SELECT 1", Source: "user"})
	if len(batches) != 0 {
		t.Fatalf("held events reached the sink: %d batches", len(batches))
	}
	if err := r.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	r.Emit(ctx, &RunFinishedData{Status: StatusSucceeded})
	r.Flush(ctx)
	r.Flush(ctx) // nothing held: no empty batch
	if len(batches) != 2 || len(batches[0]) != 2 || len(batches[1]) != 1 {
		t.Fatalf("batches: %v", batches)
	}
	var all []Event
	for _, b := range batches {
		all = append(all, b...)
	}
	st, err := Fold(all)
	if err != nil || st.Status != StatusSucceeded || st.LastSeq != 3 {
		t.Fatalf("fold: %+v %v", st, err)
	}
}

func TestFlushWithoutHoldIsANoOp(t *testing.T) {
	n := 0
	r := NewRecorder("r1", time.Now, SinkFunc(func(context.Context, ...Event) error { n++; return nil }))
	r.Emit(context.Background(), &RunStartedData{Kind: "run"})
	r.Flush(context.Background())
	if n != 1 {
		t.Fatalf("sink called %d times, want 1", n)
	}
}
