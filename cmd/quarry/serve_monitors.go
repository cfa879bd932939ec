package main

import (
	"context"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/runtime"
	"github.com/quarrydata/quarry/internal/watch"
)

// serveMonitors hands the web UI's Monitors page the project's monitors:
// the knowledge folder's files and the runner's memory, series read as
// `quarry watch test` reads them (the runtime's own connection, its
// guard, column policy and limits, a recorded run each), the alerts file
// under the policy of now, and muting. mu is shared with the workflows:
// both use the runtime's own connection, one at a time. The knowledge
// folder is read again when its files change (a monitor added or muted
// by the CLI, a column restricted), as the server's own requests do.
type serveMonitors struct {
	rt   *runtime.Runtime
	mu   *sync.Mutex
	seen string // the folder's fingerprint when it was last read
}

// lock takes the runtime and reads the knowledge folder again when its
// files changed since the last request.
func (s *serveMonitors) lock() {
	s.mu.Lock()
	cfg, err := s.rt.Config()
	if err != nil {
		return
	}
	fp, err := knowledge.Fingerprint(cfg.Knowledge)
	if err != nil || fp == s.seen {
		return
	}
	s.rt.Reload()
	s.seen = fp
}

func (s *serveMonitors) List(ctx context.Context) ([]watch.Monitor, watch.State, error) {
	s.lock()
	defer s.mu.Unlock()
	ms, err := s.rt.Monitors()
	if err != nil {
		return nil, watch.State{}, err
	}
	st, err := s.rt.WatchState(ctx)
	return ms, st, err
}

func (s *serveMonitors) Check(ctx context.Context, m watch.Monitor, asOf time.Time) (*watch.Checked, error) {
	s.lock()
	defer s.mu.Unlock()
	r, release, err := s.rt.WatchRunner(ctx, false)
	if err != nil {
		return nil, err
	}
	defer release()
	return r.Check(ctx, m, time.Time{}, asOf)
}

func (s *serveMonitors) Alerts(ctx context.Context, name string) ([]httpapi.KeptAlert, error) {
	s.lock()
	defer s.mu.Unlock()
	kept, err := s.rt.MonitorAlerts(ctx, name)
	if err != nil {
		return nil, err
	}
	out := make([]httpapi.KeptAlert, len(kept))
	for i, k := range kept {
		out[i] = httpapi.KeptAlert{At: k.At, To: k.To, Alert: k.Alert, Withheld: k.Withheld}
	}
	return out, nil
}

func (s *serveMonitors) Mute(_ context.Context, name, until string) (watch.Monitor, error) {
	s.lock()
	defer s.mu.Unlock()
	return s.rt.MuteMonitor(name, until)
}
