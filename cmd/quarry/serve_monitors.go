package main

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/runtime"
	"github.com/quarrydata/quarry/internal/watch"
)

// serveMonitors hands the web UI's Monitors page the project's monitors:
// the knowledge folder's files and the runner's memory, series read as
// `quarry watch test` reads them (the server's connections, guard, column
// policy and limits, a recorded run each), the alerts file under the
// policy of now, and muting. Every request takes the server's current
// generation (runtime.ServedMonitors), as POST /api/run does, so a column
// restricted in policy.yaml while the server runs is refused on the next
// request.
type serveMonitors struct {
	mons *runtime.ServedMonitors
	rt   *runtime.Runtime
}

func (s *serveMonitors) List(ctx context.Context) ([]watch.Monitor, watch.State, error) {
	ms, err := s.mons.List(ctx)
	if err != nil {
		return nil, watch.State{}, err
	}
	st, err := s.rt.WatchState(ctx)
	return ms, st, err
}

func (s *serveMonitors) Check(ctx context.Context, m watch.Monitor, asOf time.Time) (*watch.Checked, error) {
	r, release, err := s.mons.Runner(ctx, false)
	if err != nil {
		return nil, err
	}
	defer release()
	return r.Check(ctx, m, time.Time{}, asOf)
}

func (s *serveMonitors) Alerts(ctx context.Context, name string, page httpapi.AlertsPage) ([]httpapi.KeptAlert, bool, error) {
	kept, more, err := s.mons.Alerts(ctx, name, page.Before, page.Limit)
	if err != nil {
		return nil, false, err
	}
	out := make([]httpapi.KeptAlert, len(kept))
	for i, k := range kept {
		out[i] = httpapi.KeptAlert{Seq: k.Seq, At: k.At, To: k.To, Alert: k.Alert, Withheld: k.Withheld}
	}
	return out, more, nil
}

func (s *serveMonitors) Mute(ctx context.Context, name, until string) (watch.Monitor, error) {
	return s.mons.Mute(ctx, name, until)
}
