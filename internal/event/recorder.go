package event

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Sink receives a run's events as they are made: quarry's state store, a
// progress printer, an HTTP stream.
type Sink interface {
	Append(ctx context.Context, events ...Event) error
}

// SinkFunc adapts a function to a Sink.
type SinkFunc func(ctx context.Context, events ...Event) error

// Append calls f.
func (f SinkFunc) Append(ctx context.Context, events ...Event) error { return f(ctx, events...) }

// MultiSink returns a Sink that appends to every sink in order, so that one
// run can be stored and shown at once. Every sink sees every event even when
// an earlier one fails; the errors are joined. Nil sinks are skipped.
func MultiSink(sinks ...Sink) Sink {
	var kept []Sink
	for _, s := range sinks {
		if s != nil {
			kept = append(kept, s)
		}
	}
	return multiSink(kept)
}

type multiSink []Sink

func (m multiSink) Append(ctx context.Context, events ...Event) error {
	var errs []error
	for _, s := range m {
		if err := s.Append(ctx, events...); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Recorder numbers and timestamps the events of one run and hands them to a
// sink. It is safe for concurrent use: events reach the sink one at a time,
// in sequence order.
type Recorder struct {
	runID string
	clock func() time.Time
	sink  Sink

	mu      sync.Mutex
	seq     int64
	hold    bool    // buffer events until Flush
	pending []Event // events held back
}

// NewRecorder returns a Recorder for a new run whose first event gets
// sequence number 1. clock stamps each event.
func NewRecorder(runID string, clock func() time.Time, sink Sink) *Recorder {
	return &Recorder{runID: runID, clock: clock, sink: sink}
}

// ResumeRecorder returns a Recorder that continues a run whose log already
// ends at lastSeq (RunState.LastSeq), for runs that go on later, such as a
// manual-mode run waiting for pasted results.
func ResumeRecorder(runID string, lastSeq int64, clock func() time.Time, sink Sink) *Recorder {
	return &Recorder{runID: runID, clock: clock, sink: sink, seq: lastSeq}
}

// ContinueRecorder continues the log events (one run's, not empty): its
// next event follows the highest sequence number recorded.
func ContinueRecorder(events []Event, clock func() time.Time, sink Sink) *Recorder {
	var last int64
	for _, e := range events {
		last = max(last, e.Seq)
	}
	return ResumeRecorder(events[0].RunID, last, clock, sink)
}

// RunID returns the run's ID.
func (r *Recorder) RunID() string { return r.runID }

// Emit records p as the run's next event. A sequence number is used up even
// when the sink fails, so a retried Emit never reuses one (Fold tolerates the
// gap).
func (r *Recorder) Emit(ctx context.Context, p Payload) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	e, err := New(r.runID, r.seq, r.clock(), p)
	if err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "record %s event of run %s", p.EventType(), r.runID)
	}
	if r.hold {
		r.pending = append(r.pending, e)
		return nil
	}
	return r.sink.Append(ctx, StampOwner(OwnerOf(ctx), []Event{e})...)
}

// Advance makes the next event follow seq when another writer appended
// events to the run's log up to seq (a person's approval.decided, made on
// any replica): the recorder never reuses a sequence number it did not
// write. It does nothing when the recorder is past seq already.
func (r *Recorder) Advance(seq int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq = max(r.seq, seq)
}

// Hold makes Emit keep events until the next Flush, which hands them to
// the sink in one Append. A producer holds events between the points where
// the log must be durable (before a query runs, when the run ends), so a
// run costs a few writes instead of one per event.
func (r *Recorder) Hold() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hold = true
}

// Flush hands the held events to the sink. It does nothing when none are
// held. Events that the sink refused are dropped with their sequence
// numbers used up, as with Emit.
func (r *Recorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return nil
	}
	evs := r.pending
	r.pending = nil
	return r.sink.Append(ctx, StampOwner(OwnerOf(ctx), evs)...)
}

// WithSession returns a Sink that stamps sessionID into run.started on
// its way to next, for runs whose producer does not know the session (the
// builtin planner's): the store's index then lists them under it. A
// run.started that names a session keeps it; the caller's events are not
// changed.
func WithSession(sessionID string, next Sink) Sink {
	return SinkFunc(func(ctx context.Context, events ...Event) error {
		for i, e := range events {
			if e.Type != RunStarted {
				continue
			}
			var d RunStartedData
			if json.Unmarshal(e.Data, &d) != nil || d.SessionID != "" {
				continue
			}
			d.SessionID = sessionID
			if data, err := json.Marshal(&d); err == nil {
				events = append([]Event(nil), events...)
				events[i].Data = data
			}
		}
		return next.Append(ctx, events...)
	})
}
