package watchqueue

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
	"github.com/quarrydata/quarry/internal/watch/schedule"
)

// queueName is the River queue monitors run on.
const queueName = "quarry_monitors"

// monitorAttempts is how often River runs one monitor's period before it
// gives up (tries 1, 16, 81 and 256 s apart); the next tick then enqueues
// the same period afresh, so a monitor whose database is down keeps being
// tried, a few times every few minutes, like `quarry watch run` from cron.
const monitorAttempts = 5

// fetchCooldown is the least time between two fetches of jobs.
const fetchCooldown = 5 * time.Millisecond

// Body runs monitors: what the queue needs from the rest of quarry,
// declared here, where it is used.
type Body interface {
	// Monitors are the project's monitors now.
	Monitors(ctx context.Context) ([]watch.Monitor, error)
	// RunMonitor runs the monitor called name if it is due, with mem as
	// its memory, as `quarry watch run` would. A monitor that no longer
	// exists is a quarry.KindNotFound error.
	RunMonitor(ctx context.Context, name string, mem watch.StateStore) (watch.Outcome, error)
}

// Options tune a worker. The zero value is a worker that runs one monitor
// at a time.
type Options struct {
	// Workers is how many monitors this worker runs at once (default 1).
	Workers int
	// Tick is how often due monitors are looked for (default 10 s).
	Tick time.Duration
	// JobTimeout cancels a monitor's run that takes longer (default 5 min).
	JobTimeout time.Duration
	// RescueAfter is how long a job may stay running before River takes
	// its worker for dead and hands the job to another (default
	// JobTimeout + 5 min; it must be longer than JobTimeout, or a slow
	// run would be run twice).
	RescueAfter time.Duration
	// Poll is how often a worker looks for jobs when it is not told of
	// them (default 1 s; SQLite has no notifications, so it always polls).
	Poll time.Duration
	// Log gets one line per job and River's own warnings (default: none).
	Log io.Writer
	// Now is the clock of ticks (default time.Now).
	Now func() time.Time

	// noLeader keeps this worker out of leader election (tests: a worker
	// that will be killed must not hold the leadership meanwhile).
	noLeader bool
}

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.Tick <= 0 {
		o.Tick = 10 * time.Second
	}
	if o.JobTimeout <= 0 {
		o.JobTimeout = 5 * time.Minute
	}
	if o.RescueAfter <= o.JobTimeout {
		o.RescueAfter = o.JobTimeout + 5*time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Worker is one River client working the monitors' queue.
type Worker struct {
	start  func(context.Context) error
	stop   func(context.Context) error
	abort  func(context.Context) error
	insert func(context.Context, []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)

	store *Store
	body  Body
	o     Options
	mu    sync.Mutex // serialises log lines
}

// Worker makes a worker on the store's database that runs monitors with
// body. Start it to work.
func (s *Store) Worker(body Body, o Options) (*Worker, error) {
	return s.b.worker(s, body, o.withDefaults())
}

// tickArgs is the periodic job that enqueues the monitors that are due.
type tickArgs struct{}

func (tickArgs) Kind() string { return "quarry_watch_tick" }

func (tickArgs) InsertOpts() river.InsertOpts {
	// A tick that fails is replaced by the next one.
	return river.InsertOpts{Queue: queueName, MaxAttempts: 1}
}

// monitorArgs is one monitor's run for one period. Period is the
// schedule's first time after the monitor's last run (RFC 3339, UTC), or
// "" for a monitor that never ran.
type monitorArgs struct {
	Monitor string `json:"monitor" river:"unique"`
	Period  string `json:"period" river:"unique"`
}

func (monitorArgs) Kind() string { return "quarry_watch_monitor" }

func (monitorArgs) InsertOpts() river.InsertOpts {
	// Unique by monitor and period in River's default states (pending,
	// scheduled, available, running, retryable and completed): while a
	// monitor's job for a period lives, or stays completed, no other is
	// inserted for it.
	return river.InsertOpts{Queue: queueName, MaxAttempts: monitorAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

func newWorker[TTx any](drv riverdriver.Driver[TTx], schema string, s *Store, body Body, o Options) (*Worker, error) {
	w := &Worker{store: s, body: body, o: o}
	var client *river.Client[TTx]
	workers := river.NewWorkers()
	w.insert = func(ctx context.Context, ps []river.InsertManyParams) ([]*rivertype.JobInsertResult, error) {
		return client.InsertMany(ctx, ps)
	}
	if err := river.AddWorkerSafely(workers, &tickWorker{w: w}); err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot set up the monitors' queue")
	}
	if err := river.AddWorkerSafely(workers, &monitorWorker{w: w}); err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot set up the monitors' queue")
	}
	cfg := &river.Config{
		Queues:               map[string]river.QueueConfig{queueName: {MaxWorkers: o.Workers}},
		Workers:              workers,
		Schema:               schema,
		JobTimeout:           o.JobTimeout,
		RescueStuckJobsAfter: o.RescueAfter,
		FetchPollInterval:    o.Poll,
		// Fetch again soon after a job ends: with one job at a time,
		// River's default (100 ms) would cap a worker at 10 monitors a
		// second; an idle worker still only polls every Poll.
		FetchCooldown:          min(o.Poll, fetchCooldown),
		LeaderElectionDisabled: o.noLeader,
		Logger:                 slog.New(slog.NewTextHandler(o.Log, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if !o.noLeader {
		cfg.PeriodicJobs = []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(o.Tick),
			func() (river.JobArgs, *river.InsertOpts) { return tickArgs{}, nil },
			&river.PeriodicJobOpts{ID: "quarry_watch_tick", RunOnStart: true})}
	}
	c, err := river.NewClient(drv, cfg)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInternal, err, "cannot set up the monitors' queue")
	}
	client = c
	w.start, w.stop, w.abort = c.Start, c.Stop, c.StopAndCancel
	return w, nil
}

// Start starts working: this worker runs due monitors, and enqueues them
// while it is River's elected leader.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.start(ctx); err != nil {
		return quarry.Wrap(quarry.KindConnection, err, "cannot start the monitors' worker on %s", w.store.where)
	}
	return nil
}

// Stop stops working: it waits up to grace for the runs under way to
// finish, then cancels them; River hands a cancelled run's job to a worker
// again (after its retry wait).
func (w *Worker) Stop(ctx context.Context, grace time.Duration) error {
	sctx, cancel := context.WithTimeout(ctx, grace)
	defer cancel()
	err := w.stop(sctx)
	if err == nil {
		return nil
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		return quarry.Wrap(quarry.KindInternal, err, "the monitors' worker did not stop cleanly")
	}
	if err := w.abort(ctx); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "the monitors' worker did not stop cleanly")
	}
	return nil
}

// Run works until ctx is done, then stops, giving runs under way grace
// to finish.
func (w *Worker) Run(ctx context.Context, grace time.Duration) error {
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	<-ctx.Done()
	return w.Stop(context.WithoutCancel(ctx), grace)
}

func (w *Worker) logf(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.o.Log, "%s %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
}

type tickWorker struct {
	river.WorkerDefaults[tickArgs]
	w *Worker
}

// Work enqueues one job for every monitor that is due.
func (t *tickWorker) Work(ctx context.Context, _ *river.Job[tickArgs]) error {
	n, err := t.w.enqueue(ctx)
	if err != nil {
		t.w.logf("tick: %s", quarry.Message(err))
		return err
	}
	if n > 0 {
		t.w.logf("tick: %s due, enqueued", plural(n, "monitor"))
	}
	return nil
}

// enqueue inserts one job for every monitor that is due (never run, or
// its schedule came due since its last run) and says how many were new:
// a job already there for the same monitor and period is skipped.
func (w *Worker) enqueue(ctx context.Context) (int, error) {
	ms, err := w.body.Monitors(ctx)
	if err != nil {
		return 0, err
	}
	due, err := dueJobs(ctx, ms, w.store.Memory(""), w.o.Now())
	if err != nil || len(due) == 0 {
		return 0, err
	}
	ps := make([]river.InsertManyParams, len(due))
	for i, a := range due {
		ps[i] = river.InsertManyParams{Args: a}
	}
	res, err := w.insert(ctx, ps)
	if err != nil {
		return 0, quarry.Wrap(quarry.KindConnection, err, "cannot enqueue the %s that are due", plural(len(ps), "monitor"))
	}
	n := 0
	for _, r := range res {
		if !r.UniqueSkippedAsDuplicate {
			n++
		}
	}
	return n, nil
}

// dueJobs are the jobs of the monitors due at now according to mem: those
// never run (period "") and those whose schedule came due since their
// last run (period: the first time it came due).
func dueJobs(ctx context.Context, ms []watch.Monitor, mem watch.StateStore, now time.Time) ([]monitorArgs, error) {
	st, err := mem.Load(ctx)
	if err != nil {
		return nil, err
	}
	var out []monitorArgs
	for _, m := range ms {
		last := st.Monitors[m.Name].LastRun
		if last.IsZero() {
			out = append(out, monitorArgs{Monitor: m.Name})
			continue
		}
		sched, err := schedule.Parse(m.Schedule)
		if err != nil {
			return nil, err
		}
		next := sched.Next(last)
		if next.IsZero() || next.After(now) {
			continue
		}
		out = append(out, monitorArgs{Monitor: m.Name, Period: next.UTC().Format(time.RFC3339)})
	}
	return out, nil
}

type monitorWorker struct {
	river.WorkerDefaults[monitorArgs]
	w *Worker
}

// Work runs one monitor for one period through the body, and logs one
// line.
func (mw *monitorWorker) Work(ctx context.Context, job *river.Job[monitorArgs]) error {
	w := mw.w
	a := job.Args
	period := a.Period
	if period == "" {
		period = "first run"
	}
	began := time.Now()
	out, err := w.body.RunMonitor(ctx, a.Monitor, w.store.Memory(a.Monitor))
	took := time.Since(began).Round(time.Millisecond)
	what := fmt.Sprintf("monitor %s (%s, try %d)", a.Monitor, period, job.Attempt)
	switch {
	case err != nil && quarry.KindOf(err) == quarry.KindNotFound:
		w.logf("%s: gone, not run: %s", what, quarry.Message(err))
		return river.JobCancel(err)
	case err != nil:
		w.logf("%s: FAILED after %s: %s%s", what, took, quarry.Message(err), retryNote(job))
		return err
	case out.Status == "failed":
		w.logf("%s: FAILED after %s: %s%s", what, took, out.Error, retryNote(job))
		return quarry.Errorf(quarry.KindQuery, "monitor %s failed: %s", a.Monitor, out.Error)
	}
	w.logf("%s: %s", what, summary(out, took))
	return nil
}

func retryNote(job *river.Job[monitorArgs]) string {
	if job.Attempt >= job.MaxAttempts {
		return "; tried again at a later tick"
	}
	return "; tried again shortly"
}

// summary says what a run did in a few words.
func summary(o watch.Outcome, took time.Duration) string {
	parts := []string{o.Status}
	if o.Status == "not_due" {
		parts = []string{"not due (already ran for this period)"}
	}
	if n := len(o.Alerts); n > 0 {
		parts = append(parts, plural(n, "notice"))
	}
	if n := len(o.Runs); n > 0 {
		parts = append(parts, plural(n, "query run"))
	}
	if n := len(watch.Undelivered([]watch.Outcome{o})); n > 0 {
		parts = append(parts, plural(n, "delivery")+" FAILED (quarry watch redeliver)")
	}
	return strings.Join(parts, ", ") + " in " + took.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(what, "y"))
	}
	return fmt.Sprintf("%d %ss", n, what)
}
