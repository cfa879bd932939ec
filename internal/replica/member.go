package replica

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/store"
)

// DefaultBound is how long a replica may go without a heartbeat before the
// others finish its running runs as failed.
const DefaultBound = 30 * time.Second

// MemberStore is what a replica needs of the state.
type MemberStore interface {
	SweepStore
	Heartbeat(ctx context.Context, id string, at time.Time) error
}

// Member is one replica: its heartbeat, and the sweep of the runs of
// replicas that are gone.
type Member struct {
	ID    string
	Store MemberStore
	Clock func() time.Time
	// Bound: a replica silent for longer is gone (DefaultBound when 0).
	// The heartbeat and the sweep run every Bound/6.
	Bound time.Duration
	Log   io.Writer // one line per run a sweep finished; nil: none
}

func (m *Member) bound() time.Duration {
	if m.Bound <= 0 {
		return DefaultBound
	}
	return m.Bound
}

// Join records the replica's first heartbeat; a replica joins before it
// starts any run.
func (m *Member) Join(ctx context.Context) error {
	return m.beat(ctx)
}

func (m *Member) beat(ctx context.Context) error {
	return m.Store.Heartbeat(ctx, m.ID, m.Clock())
}

// Run beats and sweeps every Bound/6 until ctx ends. A failed heartbeat
// is tried again at the next tick, and the sweep waits for one that
// succeeds (the state may be unreachable); a failed sweep is logged.
func (m *Member) Run(ctx context.Context) {
	every := m.bound() / 6
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// A heartbeat that takes longer than a tick is as good as none;
		// a sweep may take up to the bound (many runs to finish).
		beat, cancel := context.WithTimeout(ctx, every)
		err := m.beat(beat)
		cancel()
		if err == nil {
			sweep, cancel := context.WithTimeout(ctx, m.bound())
			done, err := Sweep(sweep, m.Store, m.Clock(), m.bound())
			cancel()
			m.logf(done, err, "its server stopped")
		}
	}
}

// Leave finishes as failed, with message, the runs this replica still has
// running, and removes it from the replicas. A drained replica calls it
// last.
func (m *Member) Leave(ctx context.Context, message string) error {
	done, err := FinishOwn(ctx, m.Store, m.ID, m.Clock(), message)
	m.logf(done, err, "the drain time ran out")
	if err != nil {
		return err
	}
	return m.Store.Leave(ctx, m.ID)
}

func (m *Member) logf(done []string, err error, why string) {
	if m.Log == nil {
		return
	}
	for _, id := range done {
		fmt.Fprintf(m.Log, "quarry: run %s finished as failed: %s\n", id, why)
	}
	if err != nil {
		fmt.Fprintf(m.Log, "quarry: sweeping the runs of stopped servers: %v\n", err)
	}
}

// Stamp returns st with id written into each run.started appended through
// it that names no replica, so that the runs this replica starts are
// swept if it dies.
func Stamp(st store.State, id string) store.State { return stamped{st, id} }

type stamped struct {
	store.State
	id string
}

func (s stamped) Append(ctx context.Context, events ...event.Event) error {
	return s.State.Append(ctx, event.StampReplica(s.id, events)...)
}
