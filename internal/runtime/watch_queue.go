package runtime

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/watchfile"
	"github.com/quarrydata/quarry/internal/watch/watchqueue"
)

// WatchStore opens, once, the monitors' memory and job queue in the state
// database (the SQLite file, or the PostgreSQL state). The memory an
// older quarry kept in watch.json is imported the first time, when the
// database holds none, and the file is renamed watch.json.imported.
func (r *Runtime) WatchStore(ctx context.Context) (*watchqueue.Store, error) {
	if r.wq != nil {
		return r.wq, nil
	}
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	// The state store first: it creates the SQLite file with its modes
	// and the PostgreSQL schema with its checks.
	if _, err := r.Store(ctx); err != nil {
		return nil, err
	}
	var wq *watchqueue.Store
	if config.StateIsURL(cfg.State) {
		wq, err = watchqueue.OpenPostgres(ctx, cfg.State)
	} else {
		wq, err = watchqueue.OpenSQLite(ctx, cfg.State)
	}
	if err != nil {
		return nil, err
	}
	if err := r.importWatchFile(ctx, cfg, wq); err != nil {
		wq.Close()
		return nil, err
	}
	r.wq = wq
	return wq, nil
}

// importWatchFile moves the memory of watch.json into the database.
func (r *Runtime) importWatchFile(ctx context.Context, cfg *config.Config, wq *watchqueue.Store) error {
	_, path := WatchFiles(cfg)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	old, err := watchfile.State{Path: path}.Load(ctx)
	if err != nil {
		return err
	}
	done, err := wq.Import(ctx, old)
	if err != nil {
		return err
	}
	if err := os.Rename(path, path+".imported"); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot rename %s after reading it", path)
	}
	if done {
		r.note("the monitors' memory moved from " + path + " into the state database (the file is now " + path + ".imported)")
	}
	return nil
}

// WatchWorkerOptions tune the monitors' worker.
type WatchWorkerOptions struct {
	// Investigate breaks new alerts down by dimension.
	Investigate bool
	// AsOf, when set, is the clock the monitors run by (quarry watch serve
	// --as-of); otherwise the runtime's.
	AsOf time.Time
	// Log gets one line per job.
	Log io.Writer
}

// WatchWorker is the worker of quarry watch serve and quarry serve: it
// runs the monitors that come due, one at a time, each through the same
// runner as quarry watch run, on the job queue of the state database,
// which several workers share.
func (r *Runtime) WatchWorker(ctx context.Context, o WatchWorkerOptions) (*watchqueue.Worker, error) {
	wq, err := r.WatchStore(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := r.Monitors(); err != nil {
		return nil, err
	}
	b := &queueBody{r: r, investigate: o.Investigate, now: r.o.Now}
	if !o.AsOf.IsZero() {
		b.now = func() time.Time { return o.AsOf }
	}
	return wq.Worker(b, watchqueue.Options{Workers: 1, Log: o.Log, Now: b.now})
}

// queueBody runs the queue's jobs on the runtime. The runtime is not
// made for concurrent use, so jobs take turns (the worker runs one at a
// time anyway); the knowledge folder is read again when its files change.
type queueBody struct {
	r           *Runtime
	investigate bool
	now         func() time.Time

	mu      sync.Mutex
	hash    string // the folder's fingerprint the runner was built from
	runner  *watch.Runner
	release func()
}

// fresh reads the knowledge folder again when its files changed, and
// builds the runner over it.
func (b *queueBody) fresh(ctx context.Context) error {
	cfg, err := b.r.Config()
	if err != nil {
		return err
	}
	hash, err := knowledge.Fingerprint(cfg.Knowledge)
	if err != nil {
		return quarry.Wrap(quarry.KindConfig, err, "cannot read the knowledge folder %s", cfg.Knowledge)
	}
	if b.runner != nil && hash == b.hash {
		return nil
	}
	if b.runner != nil {
		b.release()
		b.runner = nil
		b.r.Reload()
	}
	runner, release, err := b.r.WatchRunner(ctx, b.investigate)
	if err != nil {
		return err
	}
	b.runner, b.release, b.hash = runner, release, hash
	return nil
}

func (b *queueBody) Monitors(ctx context.Context) ([]watch.Monitor, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fresh(ctx); err != nil {
		return nil, err
	}
	return b.r.Monitors()
}

func (b *queueBody) RunMonitor(ctx context.Context, name string, mem watch.StateStore) (watch.Outcome, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fresh(ctx); err != nil {
		return watch.Outcome{}, err
	}
	m, err := b.r.Monitor(name)
	if err != nil {
		return watch.Outcome{}, err
	}
	run := *b.runner
	run.State = mem
	out, err := run.Run(ctx, []watch.Monitor{m}, b.now(), false)
	if err != nil {
		return watch.Outcome{}, err
	}
	return out[0], nil
}
