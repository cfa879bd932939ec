package runtime

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// TestSlotsLetFirstEventsOutFirst: a run waits, before it takes a slot,
// until the streams waiting for their first event have it; it never waits
// longer than the grace; a canceled run stops waiting; and a stream's
// func counts once however often it is called.
func TestSlotsLetFirstEventsOutFirst(t *testing.T) {
	ctx := context.Background()

	s := NewSlots(1)
	s.grace = time.Hour // only the first events can let the run start
	sentA, sentB := s.Arriving(), s.Arriving()
	var sent atomic.Int32
	admitted := make(chan error, 1)
	go func() {
		release, err := s.Admit(ctx)
		if err == nil {
			if sent.Load() != 2 {
				err = errors.New("admitted before both first events were sent")
			}
			release()
		}
		admitted <- err
	}()
	time.Sleep(10 * time.Millisecond)
	sent.Add(1)
	sentA()
	sentA() // a second call does not count for B
	select {
	case err := <-admitted:
		t.Fatalf("admitted with one stream still waiting: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	sent.Add(1)
	sentB()
	if err := <-admitted; err != nil {
		t.Fatal(err)
	}

	// No stream waits: the run starts at once, and takes the one slot.
	release, err := s.Admit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	release()

	// A stream that never gets its first event holds a run for the grace
	// only.
	s = NewSlots(1)
	s.grace = 20 * time.Millisecond
	defer s.Arriving()()
	began := time.Now()
	release, err = s.Admit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	release()
	if waited := time.Since(began); waited < s.grace {
		t.Errorf("admitted after %v, before the grace of %v", waited, s.grace)
	}

	// Canceled while it waits for the streams.
	s = NewSlots(1)
	s.grace = time.Hour
	defer s.Arriving()()
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Admit(canceled); quarry.KindOf(err) != quarry.KindCanceled {
		t.Errorf("a canceled run: %v, want a KindCanceled error", err)
	}
}
