package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/watchfile"
)

// ServedMonitors are a server's monitors (the Monitors page of quarry
// serve). Every call takes the server's current generation, as POST
// /api/run does: the knowledge folder, the column policy and the guard as
// policy.yaml says at the moment the request starts, never what the
// server read when it started.
type ServedMonitors struct {
	r    *Runtime
	cfg  *config.Config
	gens *generations
	st   store.State
}

// List returns the folder's monitors as the current generation read them.
func (s *ServedMonitors) List(ctx context.Context) ([]watch.Monitor, error) {
	g, err := s.gens.current(ctx)
	if err != nil {
		return nil, err
	}
	return g.proj.Monitors, g.proj.MonitorsErr
}

// Runner is the monitors' runner over the current generation: its
// queries checked by the generation's guard and run on its connections,
// as WatchRunner's are on the CLI. The returned func ends the request.
func (s *ServedMonitors) Runner(ctx context.Context, investigate bool) (*watch.Runner, func(), error) {
	g, done, err := s.gens.acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	if g.proj.MonitorsErr != nil {
		done()
		return nil, nil, g.proj.MonitorsErr
	}
	an, err := g.start()
	if err != nil {
		done()
		return nil, nil, err
	}
	an.Limits = limits(s.cfg, monitorRows)
	wq, err := s.r.WatchStore(ctx)
	if err != nil {
		done()
		return nil, nil, err
	}
	model := g.proj.Knowledge.Model
	return &watch.Runner{
		Model:       model,
		Verified:    verifiedSQL(g.proj),
		Source:      &watchSource{r: s.r, an: an, model: model},
		Notifier:    s.r.notifier(s.cfg),
		State:       wq.Memory(""),
		Investigate: investigate,
	}, done, nil
}

// verifiedSQL is the project's verified queries by their question,
// lowercased.
func verifiedSQL(p *Project) map[string]string {
	out := make(map[string]string, len(p.Verified))
	for _, v := range p.Verified {
		out[strings.ToLower(strings.TrimSpace(v.Question))] = v.SQL
	}
	return out
}

// Alerts returns a page of the kept alerts of the monitor called name,
// newest first (the reverse of the order kept): at most limit of those
// numbered below before (0: from the newest); more says older ones
// remain. They show under the current generation's column policy: an
// alert is withheld whole when the monitor's own query is refused by the
// guard of the default connection now, or when the run that read its
// series reads a restricted column now (the lineage check `quarry runs
// export` makes); its investigation alone is withheld when one of the
// investigation's runs does. Only the page's alerts are checked.
func (s *ServedMonitors) Alerts(ctx context.Context, name string, before, limit int) ([]KeptAlert, bool, error) {
	path, _ := WatchFiles(s.cfg)
	page, more, err := watchfile.ReadAlertsPage(path, name, before, limit)
	if err != nil {
		return nil, false, err
	}
	out := make([]KeptAlert, len(page))
	for i, k := range page {
		out[i] = KeptAlert{Kept: k.Kept, Seq: k.Seq}
	}
	if len(out) == 0 {
		return out, more, nil
	}
	sc, done, err := s.scope(ctx)
	if err != nil {
		return nil, false, err
	}
	defer done()
	if err := sc.apply(ctx, out); err != nil {
		return nil, false, err
	}
	return out, more, nil
}

// scope is the alertScope of the current generation, held until done.
func (s *ServedMonitors) scope(ctx context.Context) (*alertScope, func(), error) {
	g, done, err := s.gens.acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	sc := &alertScope{policy: g.proj.Policy, monitors: g.proj.Monitors, store: s.st}
	verified := verifiedSQL(g.proj)
	sc.refused = func(ctx context.Context, m watch.Monitor) (bool, error) {
		if g.guard == nil {
			return true, nil // manual mode: no guard says the query is allowed
		}
		an, err := g.start()
		if err != nil {
			return false, err
		}
		return monitorRefused(ctx, g.guard, g.proj.Knowledge.Model, verified, an.Conn.Dialect(), m, s.r.o.Now())
	}
	sc.guardFor = func(_ context.Context, connection string) analyst.Guard {
		if name, _, _ := strings.Cut(connection, " ("); g.guard != nil && name == g.conn {
			return g.guard
		}
		return nil
	}
	return sc, done, nil
}

// Mute writes muted_until into the monitor's file (until "": removes
// it) and returns the monitor as the next generation reads it back.
func (s *ServedMonitors) Mute(ctx context.Context, name, until string) (watch.Monitor, error) {
	ms, err := s.List(ctx)
	if err != nil {
		return watch.Monitor{}, err
	}
	var m watch.Monitor
	for _, x := range ms {
		if x.Name == name {
			m = x
		}
	}
	if m.Name == "" {
		return m, quarry.Errorf(quarry.KindNotFound, "no monitor %q; GET /api/monitors lists them", name)
	}
	path := filepath.Join(s.cfg.Knowledge, filepath.FromSlash(m.File))
	src, err := os.ReadFile(path)
	if err != nil {
		return m, quarry.Wrap(quarry.KindInternal, err, "cannot read %s", path)
	}
	if err := WriteFileAtomic(path, []byte(setTopLevel(string(src), "muted_until", until)), 0o644); err != nil {
		return m, quarry.Wrap(quarry.KindInternal, err, "cannot write %s", path)
	}
	ms, err = s.List(ctx)
	if err == nil {
		for _, x := range ms {
			if x.Name == name {
				return x, nil
			}
		}
		err = quarry.Errorf(quarry.KindInternal, "monitor %s was not read back after muting", name)
	}
	// The edit broke the folder: put the file back as it was.
	_ = WriteFileAtomic(path, src, 0o644)
	return m, err
}
