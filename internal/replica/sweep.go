package replica

import (
	"context"
	"sort"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Messages of the runs a sweep finishes.
const (
	// Gone is the error of a run whose replica stopped saying it is alive.
	Gone = "the server running it stopped; ask again"
	// Drained is the error of a run still going when its replica's drain
	// time ran out.
	Drained = "the server running it was shut down before it finished; ask again"
)

// Stale returns the runs of runs that are still running on a replica that
// is gone at now: one that left (no heartbeat in beats) or whose last
// heartbeat is older than bound; a run waiting there for approval is
// still in its hands, and stale with it. A run that names no replica (started by
// the CLI, by quarry watch serve, by a single server before replicas, or a
// workflow's own run, which may wait with no process holding it) is never
// stale: nothing proves its process gone, and it keeps the
// status its log gives it. Runs waiting for pasted results are not
// running. The result is ordered by run ID.
func Stale(runs []event.RunState, beats map[string]time.Time, now time.Time, bound time.Duration) []event.RunState {
	var out []event.RunState
	for _, r := range runs {
		if !unfinished(r.Status) || r.Replica == "" {
			continue
		}
		seen, ok := beats[r.Replica]
		if ok && now.Sub(seen) <= bound {
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RunID < out[j].RunID })
	return out
}

// unfinished reports whether a run of status is still in its process's
// hands: running, or waiting there for a person's approval.
func unfinished(status string) bool {
	return status == event.StatusRunning || status == event.StatusAwaitingApproval
}

// live returns the runs the state indexes as unfinished.
func live(ctx context.Context, st SweepStore) ([]event.RunState, error) {
	var out []event.RunState
	for _, status := range []string{event.StatusRunning, event.StatusAwaitingApproval} {
		runs, err := st.Runs(ctx, store.RunFilter{Status: status})
		if err != nil {
			return nil, err
		}
		out = append(out, runs...)
	}
	return out, nil
}

// Finish appends run.finished (failed, with message) to run st at the
// sequence number after the last one its log holds. It reports false,
// without error, when the log no longer ends there (another sweeper, or
// the run itself, recorded that number first): a run is finished once
// however many replicas sweep it.
func Finish(ctx context.Context, sink event.Sink, st event.RunState, at time.Time, message string) (bool, error) {
	e, err := event.New(st.RunID, st.LastSeq+1, at, &event.RunFinishedData{
		Status: event.StatusFailed, Error: message, Kind: string(quarry.KindConnection),
	})
	if err != nil {
		return false, quarry.Wrap(quarry.KindInternal, err, "record the end of run %s", st.RunID)
	}
	switch err := sink.Append(ctx, e); {
	case err == nil:
		return true, nil
	case quarry.KindOf(err) == quarry.KindConflict:
		return false, nil
	default:
		return false, err
	}
}

// SweepStore is what a sweep reads and writes in the state.
type SweepStore interface {
	event.Sink
	Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error)
	Replicas(ctx context.Context) (map[string]time.Time, error)
	Leave(ctx context.Context, id string) error
}

// forgetAfter: a replica silent for this many bounds is removed from the
// replicas, its runs long swept (a run that still names it is then one of
// a replica that left, and is swept all the same).
const forgetAfter = 10

// Sweep finishes as failed the running runs of replicas gone at now
// (Stale with bound) and returns the IDs of those it finished itself. It
// removes the replicas silent for forgetAfter bounds, so that the table
// does not keep every process that ever died.
func Sweep(ctx context.Context, st SweepStore, now time.Time, bound time.Duration) ([]string, error) {
	runs, err := live(ctx, st)
	if err != nil {
		return nil, err
	}
	beats, err := st.Replicas(ctx)
	if err != nil {
		return nil, err
	}
	var done []string
	for _, r := range Stale(runs, beats, now, bound) {
		ok, err := Finish(ctx, st, r, now, Gone)
		if err != nil {
			return done, err
		}
		if ok {
			done = append(done, r.RunID)
		}
	}
	for id, seen := range beats {
		if now.Sub(seen) > forgetAfter*bound {
			if err := st.Leave(ctx, id); err != nil {
				return done, err
			}
		}
	}
	return done, nil
}

// FinishOwn finishes as failed, with message, the runs replica id still
// has running: what a draining replica leaves when its time is up. It
// returns the IDs of those it finished.
func FinishOwn(ctx context.Context, st SweepStore, id string, now time.Time, message string) ([]string, error) {
	runs, err := live(ctx, st)
	if err != nil {
		return nil, err
	}
	var done []string
	for _, r := range runs {
		if r.Replica != id {
			continue
		}
		ok, err := Finish(ctx, st, r, now, message)
		if err != nil {
			return done, err
		}
		if ok {
			done = append(done, r.RunID)
		}
	}
	return done, nil
}
