package watchqueue

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/watch"
)

// countingBody is the fake body of the queue's tests: a run costs
// nothing, is counted, and is remembered as watch.Runner remembers it
// (its last run, saved through the memory it is handed), so the queue's
// own deduplication is what the counts measure.
type countingBody struct {
	ms []watch.Monitor

	mu    sync.Mutex
	runs  map[string]int
	total int
	// block, when set, makes a run wait for the job's end (a worker that
	// will be killed); started is closed when the first run begins.
	block   bool
	started chan struct{}
}

func newBody(n int) *countingBody {
	b := &countingBody{runs: map[string]int{}, started: make(chan struct{})}
	for i := range n {
		b.ms = append(b.ms, watch.Monitor{Name: fmt.Sprintf("m%04d", i), Schedule: "@hourly"})
	}
	return b
}

func (b *countingBody) Monitors(context.Context) ([]watch.Monitor, error) { return b.ms, nil }

func (b *countingBody) RunMonitor(ctx context.Context, name string, mem watch.StateStore) (watch.Outcome, error) {
	b.mu.Lock()
	b.runs[name]++
	b.total++
	if b.total == 1 {
		close(b.started)
	}
	b.mu.Unlock()
	if b.block {
		<-ctx.Done()
		return watch.Outcome{}, ctx.Err()
	}
	if err := mem.Save(ctx, watch.State{Monitors: map[string]watch.MonitorState{name: {LastRun: time.Now()}}}); err != nil {
		return watch.Outcome{}, err
	}
	return watch.Outcome{Monitor: name, Status: "ran", Alerts: []watch.Alert{}}, nil
}

func (b *countingBody) count() (total int, twice []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for name, n := range b.runs {
		if n > 1 {
			twice = append(twice, fmt.Sprintf("%s ran %d times", name, n))
		}
	}
	return b.total, twice
}

// waitRuns waits until the body has run want monitors, then a little
// longer, so that a duplicate would have time to run too.
func waitRuns(t testing.TB, b *countingBody, want int, within time.Duration) time.Duration {
	t.Helper()
	began := time.Now()
	for {
		n, _ := b.count()
		if n >= want {
			took := time.Since(began)
			time.Sleep(300 * time.Millisecond)
			return took
		}
		if time.Since(began) > within {
			t.Fatalf("%d of %d monitors ran within %s", n, want, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fast are the options of a test's workers: frequent ticks and polls.
func fast() Options {
	return Options{Workers: 20, Tick: 200 * time.Millisecond, Poll: 20 * time.Millisecond}
}

// opener opens the same state database again (a second worker, a
// process of its own in production); raw is the same without the test's
// bookkeeping, for goroutines.
type opener struct {
	raw func(context.Context) (*Store, error)
}

func (o opener) open(t testing.TB) *Store {
	t.Helper()
	s, err := o.raw(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func sqliteOpener(t testing.TB) opener {
	path := filepath.Join(t.TempDir(), "state.db")
	return opener{raw: func(ctx context.Context) (*Store, error) { return OpenSQLite(ctx, path) }}
}

// pgURL is the test server's URL with a schema of the test's own as the
// search_path, dropped when the test ends.
func pgURL(t testing.TB) string {
	t.Helper()
	base := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "qqueue_" + hex.EncodeToString(b)
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return base + sep + "search_path=" + schema
}

func pgOpener(t testing.TB) opener {
	url := pgURL(t)
	return opener{raw: func(ctx context.Context) (*Store, error) { return OpenPostgres(ctx, url) }}
}

func backends(t *testing.T, f func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) { f(t, sqliteOpener(t)) })
	t.Run("postgres", func(t *testing.T) { f(t, pgOpener(t)) })
}

func startWorker(t testing.TB, s *Store, b Body, o Options) *Worker {
	t.Helper()
	w, err := s.Worker(b, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Stop(context.Background(), 5*time.Second); err != nil {
			t.Error(err)
		}
	})
	return w
}

// TestThousandOnOneWorker: 1,000 monitors due at once, one worker: each
// runs exactly once, within a minute (an hourly monitor's period is an
// hour).
func TestThousandOnOneWorker(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("1,000 jobs: not under -short or the race detector")
	}
	backends(t, func(t *testing.T, open opener) {
		b := newBody(1000)
		startWorker(t, open.open(t), b, fast())
		took := waitRuns(t, b, 1000, time.Minute)
		total, twice := b.count()
		if total != 1000 || len(twice) > 0 {
			t.Errorf("%d runs of 1,000 monitors; %v", total, twice)
		}
		t.Logf("1,000 monitors on one worker: %s (%.0f a second)", took.Round(time.Millisecond), 1000/took.Seconds())
	})
}

// TestTwoWorkersNeverTwice: two workers (two River clients on one
// database) share 1,000 due monitors, with ticks every 200 ms racing the
// runs: each monitor's period runs exactly once, and both workers work.
func TestTwoWorkersNeverTwice(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("1,000 jobs: not under -short or the race detector")
	}
	backends(t, func(t *testing.T, open opener) {
		b := newBody(1000)
		var logs [2]bytes.Buffer
		var mus [2]sync.Mutex
		for i := range 2 {
			o := fast()
			o.Log = &lockedWriter{w: &logs[i], mu: &mus[i]}
			startWorker(t, open.open(t), b, o)
		}
		waitRuns(t, b, 1000, time.Minute)
		total, twice := b.count()
		if total != 1000 || len(twice) > 0 {
			t.Errorf("%d runs of 1,000 monitors; %v", total, twice)
		}
		for i := range 2 {
			mus[i].Lock()
			n := strings.Count(logs[i].String(), ": ran in ")
			mus[i].Unlock()
			if n == 0 {
				t.Errorf("worker %d ran no monitor", i+1)
			}
			t.Logf("worker %d ran %d monitors", i+1, n)
		}
	})
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestMemoryPerMonitor: the memory of one monitor is saved alone, so that
// two workers saving different monitors keep both; the memory of all
// monitors reads every row; an old file's memory is imported only into an
// empty table.
func TestMemoryPerMonitor(t *testing.T) {
	backends(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open.open(t)
		at := time.Date(2026, 6, 29, 9, 0, 0, 0, time.UTC)
		old := watch.State{Monitors: map[string]watch.MonitorState{"a": {LastRun: at, Handled: map[string]string{"": "2026-06-22"}}}}
		if ok, err := s.Import(ctx, old); err != nil || !ok {
			t.Fatalf("import into an empty memory: %v, %v", ok, err)
		}
		if ok, err := s.Import(ctx, watch.State{Monitors: map[string]watch.MonitorState{"z": {LastRun: at}}}); err != nil || ok {
			t.Fatalf("import into a memory with rows: %v, %v", ok, err)
		}
		// b's runner loaded everything before a's moved on: its save must
		// not put a's old memory back.
		stale, err := s.Memory("").Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		later := at.Add(time.Hour)
		if err := s.Memory("a").Save(ctx, watch.State{Monitors: map[string]watch.MonitorState{"a": {LastRun: later}}}); err != nil {
			t.Fatal(err)
		}
		stale.Monitors["b"] = watch.MonitorState{LastRun: later}
		if err := s.Memory("b").Save(ctx, stale); err != nil {
			t.Fatal(err)
		}
		got, err := open.open(t).Memory("").Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := watch.State{Monitors: map[string]watch.MonitorState{"a": {LastRun: later}, "b": {LastRun: later}}}
		if d := cmp.Diff(want, got, cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) })); d != "" {
			t.Errorf("memory (-want +got):\n%s", d)
		}
		one, err := s.Memory("b").Load(ctx)
		if err != nil || len(one.Monitors) != 1 {
			t.Errorf("b's memory: %v, %v", one, err)
		}
	})
}

// TestDue: a monitor never run is due for its first run; one whose
// schedule came due since its last run is due for that time; one that ran
// this period is not.
func TestDue(t *testing.T) {
	ctx := context.Background()
	s := sqliteOpener(t).open(t)
	now := time.Date(2026, 7, 6, 9, 30, 0, 0, time.Local)
	ms := []watch.Monitor{{Name: "new", Schedule: "@hourly"}, {Name: "late", Schedule: "@hourly"}, {Name: "done", Schedule: "@hourly"}}
	if err := s.Memory("").Save(ctx, watch.State{Monitors: map[string]watch.MonitorState{
		"late": {LastRun: now.Add(-2 * time.Hour)}, "done": {LastRun: now.Add(-10 * time.Minute)},
	}}); err != nil {
		t.Fatal(err)
	}
	got, err := dueJobs(ctx, ms, s.Memory(""), now)
	if err != nil {
		t.Fatal(err)
	}
	want := []monitorArgs{{Monitor: "new"}, {Monitor: "late", Period: now.Add(-90 * time.Minute).UTC().Format(time.RFC3339)}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("due (-want +got):\n%s", d)
	}
}

// TestNotFoundCancels: a job of a monitor that is gone is cancelled, not
// retried.
func TestNotFoundCancels(t *testing.T) {
	var log bytes.Buffer
	var mu sync.Mutex
	b := &goneBody{}
	o := fast()
	o.Log = &lockedWriter{w: &log, mu: &mu}
	startWorker(t, sqliteOpener(t).open(t), b, o)
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		s := log.String()
		mu.Unlock()
		if strings.Contains(s, "monitor gone (first run, try 1): gone, not run") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no cancellation logged:\n%s", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type goneBody struct{}

func (goneBody) Monitors(context.Context) ([]watch.Monitor, error) {
	return []watch.Monitor{{Name: "gone", Schedule: "@hourly"}}, nil
}

func (goneBody) RunMonitor(context.Context, string, watch.StateStore) (watch.Outcome, error) {
	return watch.Outcome{}, quarry.Errorf(quarry.KindNotFound, "no monitor %q", "gone")
}

// BenchmarkThousandMonitors: the time for one worker to run 1,000
// monitors due at once (a run costs nothing: this is the queue), on the
// SQLite state and on PostgreSQL, running one monitor at a time (as
// quarry watch serve does) and 20 at a time.
func BenchmarkThousandMonitors(b *testing.B) {
	for _, bk := range []struct {
		name string
		open func(testing.TB) opener
	}{{"sqlite", sqliteOpener}, {"postgres", pgOpener}} {
		for _, workers := range []int{1, 20} {
			b.Run(fmt.Sprintf("%s/workers=%d", bk.name, workers), func(b *testing.B) {
				open := bk.open(b)
				var total time.Duration
				for i := 0; i < b.N; i++ {
					body := newBody(1000)
					for j := range body.ms {
						body.ms[j].Name = fmt.Sprintf("b%d_%04d", i, j)
					}
					o := fast()
					o.Workers = workers
					w, err := open.open(b).Worker(body, o)
					if err != nil {
						b.Fatal(err)
					}
					began := time.Now()
					if err := w.Start(context.Background()); err != nil {
						b.Fatal(err)
					}
					for n, _ := body.count(); n < 1000; n, _ = body.count() {
						time.Sleep(5 * time.Millisecond)
					}
					total += time.Since(began)
					if err := w.Stop(context.Background(), 5*time.Second); err != nil {
						b.Fatal(err)
					}
					if _, twice := body.count(); len(twice) > 0 {
						b.Fatal(twice)
					}
				}
				b.ReportMetric(total.Seconds()/float64(b.N), "s/1000monitors")
				b.ReportMetric(float64(1000*b.N)/total.Seconds(), "monitors/s")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// TestKilledWorkersJobRunsAgain: a worker is killed (SIGKILL) while it
// runs a monitor; River's rescuer, on the other worker, hands the job back
// and the other worker runs it.
func TestKilledWorkersJobRunsAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a worker process and kills it")
	}
	backends(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open.open(t)
		b := newBody(1)
		o := fast()
		o.JobTimeout, o.RescueAfter = 500*time.Millisecond, time.Second
		var log bytes.Buffer
		var mu sync.Mutex
		o.Log = &lockedWriter{w: &log, mu: &mu}
		w, err := s.Worker(b, o)
		if err != nil {
			t.Fatal(err)
		}
		// Enqueue the monitor's job now, and let the other process take it.
		if n, err := w.enqueue(ctx); err != nil || n != 1 {
			t.Fatalf("enqueue: %d, %v", n, err)
		}
		marker := filepath.Join(t.TempDir(), "started")
		where := "sqlite:" + s.where
		if pg, ok := s.b.(*pgBackend); ok {
			where = "postgres:" + pg.url
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWorker$", "-test.v")
		cmd.Env = append(os.Environ(), "QUARRY_WATCHQUEUE_HELPER="+where, "QUARRY_WATCHQUEUE_MARKER="+marker)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(marker); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the helper worker never ran the monitor:\n%s", out.String())
			}
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		// The job stays running in the database until the leader's rescuer
		// (the worker, once started: it checks when it is elected, then
		// every 30 s) sees it running for longer than RescueAfter.
		time.Sleep(o.RescueAfter + 500*time.Millisecond)
		if err := w.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Stop(context.Background(), 5*time.Second) })
		waitRuns(t, b, 1, 20*time.Second)
		mu.Lock()
		defer mu.Unlock()
		if !strings.Contains(log.String(), "monitor m0000 (first run, try 2): ran") {
			t.Errorf("the rescued job's second try is not in the log:\n%s", log.String())
		}
	})
}

// TestHelperWorker is the worker process TestKilledWorkersJobRunsAgain
// starts and kills; it does nothing otherwise.
func TestHelperWorker(t *testing.T) {
	where := os.Getenv("QUARRY_WATCHQUEUE_HELPER")
	if where == "" {
		t.Skip("the worker process of TestKilledWorkersJobRunsAgain")
	}
	ctx := context.Background()
	var s *Store
	var err error
	if path, ok := strings.CutPrefix(where, "sqlite:"); ok {
		s, err = OpenSQLite(ctx, path)
	} else {
		s, err = OpenPostgres(ctx, strings.TrimPrefix(where, "postgres:"))
	}
	if err != nil {
		t.Fatal(err)
	}
	b := newBody(1)
	b.block = true
	o := fast()
	o.JobTimeout, o.noLeader = time.Hour, true
	w, err := s.Worker(b, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	<-b.started
	if err := os.WriteFile(os.Getenv("QUARRY_WATCHQUEUE_MARKER"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {} // until killed
}

// TestOpenTogether: workers starting together on a new database create
// the tables once, and all of them open it.
func TestOpenTogether(t *testing.T) {
	backends(t, func(t *testing.T, open opener) {
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range errs {
			wg.Go(func() {
				s, err := open.raw(context.Background())
				if err == nil {
					s.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	})
}
