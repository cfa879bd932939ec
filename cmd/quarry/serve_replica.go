package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/replica"
	"github.com/quarrydata/quarry/internal/store"
)

// replicaState is a state replicas can share: every backend's.
type replicaState interface {
	store.State
	store.Replicas
}

// listener is a state that announces each event stored (PostgreSQL).
type listener interface {
	Listen(ctx context.Context, fn func(runID string))
}

// pollEvery is how often streams read a state without announcements
// (SQLite) for new events.
const pollEvery = 250 * time.Millisecond

// asReplica is what serve does to share its state with other replicas:
// it joins the state's replicas under a new ID (the host's name and a
// unique suffix, never reused, so that a restarted process is never taken
// for the one that died), beats and sweeps on ctx until stop, and wakes the
// streams of runs whose logs grow: from the state's announcements, or by
// polling. The ID goes into every run the server starts (replica.Stamp).
type asReplica struct {
	member *replica.Member
	tail   httpapi.Tailer
	ready  func(ctx context.Context) error
	stop   context.CancelFunc
}

func (a *app) joinReplicas(ctx context.Context, newID func(string) string, clock func() time.Time, bound time.Duration) (*asReplica, error) {
	raw, err := a.rt.Store(ctx)
	if err != nil {
		return nil, err
	}
	st, ok := raw.(replicaState)
	if !ok {
		return nil, quarry.Errorf(quarry.KindInternal, "the state %s cannot record replicas", raw.Where())
	}
	host, _ := os.Hostname()
	if host == "" {
		host = "quarry"
	}
	m := &replica.Member{ID: host + "-" + newID("rep"), Store: st, Clock: clock, Bound: bound, Log: a.stderr}
	if err := m.Join(ctx); err != nil {
		return nil, err
	}
	// The heartbeat goes on while the server drains, until stop.
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	go m.Run(bg)
	hub := replica.NewHub()
	if l, ok := raw.(listener); ok {
		go l.Listen(bg, hub.Notify)
	} else {
		go hub.Poll(bg, pollEvery)
	}
	return &asReplica{member: m, tail: hub, stop: stop, ready: st.Ping}, nil
}

// leave finishes as failed the runs this replica still has running and
// leaves the state's replicas, then stops the heartbeat.
func (r *asReplica) leave(ctx context.Context, a *app) {
	defer r.stop()
	if err := r.member.Leave(ctx, replica.Drained); err != nil {
		fmt.Fprintf(a.stderr, "quarry: warning: leaving the replicas: %s\n", quarry.Message(err))
	}
}
