package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

var t0 = time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)

func statePath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "project", ".quarry", "state.db")
}

func openStore(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rawDB opens the state database directly, as any SQLite client could.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := driver.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// clock returns a clock that advances one millisecond per call.
func clock(start time.Time) func() time.Time {
	var mu sync.Mutex
	now := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}
}

// record writes a typical run through a Recorder and returns what it wrote.
func record(t *testing.T, sink event.Sink, runID, kind string, start time.Time, finish bool) []event.Event {
	t.Helper()
	got, err := recordRun(sink, runID, kind, start, finish)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// recordRun is record for goroutines, which must not call t.Fatal.
func recordRun(sink event.Sink, runID, kind string, start time.Time, finish bool) ([]event.Event, error) {
	ctx := context.Background()
	var got []event.Event
	r := event.NewRecorder(runID, clock(start), event.MultiSink(sink, event.SinkFunc(func(_ context.Context, es ...event.Event) error {
		got = append(got, es...)
		return nil
	})))
	payloads := []event.Payload{
		&event.RunStartedData{Kind: kind, Question: "orders per month", SQL: "SELECT 1", Dialect: "sqlite", SessionID: "s_" + kind},
		&event.SQLGeneratedData{SQL: "SELECT count(*) FROM orders", Source: "user"},
		&event.GuardCheckedData{Allowed: true, Dialect: "sqlite"},
		&event.QueryExecutedData{Rows: 1, DurationMS: 2.5, Columns: []string{"count(*)"}},
	}
	if finish {
		payloads = append(payloads, &event.RunFinishedData{Status: event.StatusSucceeded})
	}
	for _, p := range payloads {
		if err := r.Emit(ctx, p); err != nil {
			return got, err
		}
	}
	return got, nil
}

func wantKind(t *testing.T, err error, kind quarry.Kind) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one of kind %s", kind)
	}
	if k := quarry.KindOf(err); k != kind {
		t.Fatalf("error kind %s, want %s: %v", k, kind, err)
	}
}

func TestOpenCreatesPrivateStateDatabase(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state folder: %v, mode %v; want 0700", err, fi.Mode().Perm())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	ctx := context.Background()
	var mode string
	var fk, timeout int
	if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	if err := s.db.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
	if err := s.db.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&timeout); err != nil || timeout != int(busyTimeout.Milliseconds()) {
		t.Errorf("busy_timeout = %d, %v", timeout, err)
	}
	if s.Path() != path {
		t.Errorf("Path = %s, want %s", s.Path(), path)
	}
}

func TestMigrationsAreForwardOnlyAndIdempotent(t *testing.T) {
	ms := migrations()
	if len(ms) != SchemaVersion {
		t.Fatalf("%d migrations, SchemaVersion %d", len(ms), SchemaVersion)
	}
	for i, m := range ms {
		if m.version != i+1 {
			t.Errorf("migration %d has version %d; versions run 1, 2, 3…", i, m.version)
		}
	}
	path := statePath(t)
	ctx := context.Background()
	for range 3 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		var n, max int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*), max(version) FROM schema_migrations`).Scan(&n, &max); err != nil {
			t.Fatal(err)
		}
		if n != SchemaVersion || max != SchemaVersion {
			t.Errorf("schema_migrations has %d rows up to %d; want %d", n, max, SchemaVersion)
		}
		s.Close()
	}
	// A database from a newer quarry is refused, not downgraded.
	db := rawDB(t, path)
	if _, err := db.Exec(`INSERT INTO schema_migrations (version, name) VALUES (?, 'future')`, SchemaVersion+1); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctx, path)
	wantKind(t, err, quarry.KindConfig)
	if !strings.Contains(err.Error(), "upgrade quarry") {
		t.Errorf("message does not say what to do: %v", err)
	}
}

func TestOpenRefusesAFileThatIsNotADatabase(t *testing.T) {
	path := statePath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	wantKind(t, err, quarry.KindConfig)
}

func TestAppendAndReadBack(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	wrote := record(t, s, "r_01ROUND", "run", t0, true)
	got, err := s.Events(ctx, "r_01ROUND")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wrote, got); diff != "" {
		t.Errorf("events (-wrote +read):\n%s", diff)
	}
	want, err := event.Fold(wrote)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Run(ctx, "r_01ROUND")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("run state (-want +got):\n%s", diff)
	}
	if st.Status != event.StatusSucceeded || st.Events != 5 {
		t.Errorf("state = %+v", st)
	}
}

func TestAppendIsIdempotentButNeverReplaces(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	wrote := record(t, s, "r_01IDEM", "run", t0, false)
	// Redelivering stored events (a retry) is harmless.
	if err := s.Append(ctx, wrote...); err != nil {
		t.Fatalf("re-append of identical events: %v", err)
	}
	forged := wrote[1]
	forged.Data = []byte(`{"sql":"DROP TABLE orders","source":"user"}`)
	next, err := event.New("r_01IDEM", 5, t0.Add(time.Hour), &event.RunFinishedData{Status: event.StatusFailed})
	if err != nil {
		t.Fatal(err)
	}
	// The batch holds a new event and a forged one: neither is stored.
	wantKind(t, s.Append(ctx, next, forged), quarry.KindConflict)
	got, err := s.Events(ctx, "r_01IDEM")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wrote, got); diff != "" {
		t.Errorf("log changed (-before +after):\n%s", diff)
	}
}

func TestAppendRejectsMalformedEvents(t *testing.T) {
	s := openStore(t, statePath(t))
	good, err := event.New("r_x", 1, t0, &event.RunStartedData{Kind: "run"})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]func(e *event.Event){
		"no run":         func(e *event.Event) { e.RunID = "" },
		"seq zero":       func(e *event.Event) { e.Seq = 0 },
		"no type":        func(e *event.Event) { e.Type = "" },
		"no time":        func(e *event.Event) { e.At = time.Time{} },
		"not JSON":       func(e *event.Event) { e.Data = []byte(`{"kind":`) },
		"wrong payload":  func(e *event.Event) { e.Data = []byte(`{"kind":5}`) },
		"null data json": func(e *event.Event) { e.Data = nil },
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			e := good
			mutate(&e)
			wantKind(t, s.Append(context.Background(), e), quarry.KindInternal)
		})
	}
	// An unknown type or a newer version is stored as is, for newer readers.
	future := event.Event{RunID: "r_x", Seq: 1, Type: "model.called", Version: event.Version + 1, At: t0, Data: []byte(`{"tokens":3}`)}
	if err := s.Append(context.Background(), future); err != nil {
		t.Errorf("an event of an unknown type was refused: %v", err)
	}
}

func TestEventsAreAppendOnlyInSQL(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	wrote := record(t, s, "r_01LOCK", "run", t0, true)
	db := rawDB(t, path)
	for _, stmt := range []string{
		`UPDATE events SET data = '{}' WHERE run_id = 'r_01LOCK'`,
		`UPDATE events SET seq = seq + 100`,
		`DELETE FROM events WHERE run_id = 'r_01LOCK' AND seq = 2`,
		`DELETE FROM events`,
		`INSERT OR REPLACE INTO events (run_id, seq, type, version, at, data) VALUES ('r_01LOCK', 2, 'sql.generated', 1, '2026-06-30T09:00:00.000000000Z', '{"sql":"DROP TABLE x"}')`,
		`INSERT INTO events (run_id, seq, type, version, at, data) VALUES ('r_01LOCK', 3, 'guard.checked', 1, '2026-06-30T09:00:00.000000000Z', '{}') ON CONFLICT DO UPDATE SET data = excluded.data`,
		`REPLACE INTO events (run_id, seq, type, version, at, data) VALUES ('r_01LOCK', 1, 'run.started', 1, '2026-06-30T09:00:00.000000000Z', '{}')`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s\n  = %v; want an append-only abort", stmt, err)
		}
	}
	got, err := s.Events(ctx, "r_01LOCK")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wrote, got); diff != "" {
		t.Errorf("log changed (-before +after):\n%s", diff)
	}
}

func TestConcurrentAppenders(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	const runs, perRun = 6, 20
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() {
			r := event.NewRecorder(fmt.Sprintf("r_%02d", i), clock(t0.Add(time.Duration(i)*time.Minute)), s)
			if err := r.Emit(ctx, &event.RunStartedData{Kind: "ask"}); err != nil {
				t.Error(err)
				return
			}
			// Several goroutines share one run's recorder too.
			var inner sync.WaitGroup
			for range 2 {
				inner.Go(func() {
					for range perRun / 2 {
						if err := r.Emit(ctx, &event.SQLGeneratedData{SQL: "SELECT 1", Source: "model"}); err != nil {
							t.Error(err)
							return
						}
					}
				})
			}
			inner.Wait()
			if err := r.Emit(ctx, &event.RunFinishedData{Status: event.StatusSucceeded}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	all, err := s.Runs(ctx, RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != runs {
		t.Fatalf("%d runs, want %d", len(all), runs)
	}
	for i, st := range all {
		wantID := fmt.Sprintf("r_%02d", runs-1-i) // newest first
		if st.RunID != wantID || st.Events != perRun+2 || st.LastSeq != perRun+2 || len(st.SQLs) != perRun || st.Status != event.StatusSucceeded {
			t.Errorf("run %d: id %s events %d last %d sqls %d status %s", i, st.RunID, st.Events, st.LastSeq, len(st.SQLs), st.Status)
		}
	}
}

func TestRunIDPrefixes(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	for i, id := range []string{"r_01AAA1", "r_01AAA10", "r_01AAA2", "r_01BBB", "r_01ÄÖ"} {
		record(t, s, id, "run", t0.Add(time.Duration(i)*time.Minute), true)
	}
	tests := []struct {
		in   string
		want string
		kind quarry.Kind
	}{
		{in: "r_01AAA1", want: "r_01AAA1"}, // exact wins over the longer r_01AAA10
		{in: "r_01AAA10", want: "r_01AAA10"},
		{in: "r_01B", want: "r_01BBB"},
		{in: " r_01AAA2 ", want: "r_01AAA2"},
		{in: "r_01Ä", want: "r_01ÄÖ"},
		{in: "r_01AAA", kind: quarry.KindInput},
		{in: "r_0", kind: quarry.KindInput},
		{in: "r_9", kind: quarry.KindNotFound},
		{in: "r_01BBBB", kind: quarry.KindNotFound},
		{in: "", kind: quarry.KindUsage},
		{in: "%", kind: quarry.KindNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			events, err := s.Events(ctx, tt.in)
			if tt.kind != "" {
				wantKind(t, err, tt.kind)
				if tt.kind == quarry.KindNotFound && !strings.Contains(err.Error(), "quarry runs list") {
					t.Errorf("message does not point at `quarry runs list`: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(events) == 0 || events[0].RunID != tt.want {
				t.Errorf("resolved to %v, want %s", events, tt.want)
			}
		})
	}
	if _, err := s.Run(ctx, "r_01AAA"); !strings.Contains(fmt.Sprint(err), "r_01AAA1, r_01AAA10, r_01AAA2") {
		t.Errorf("ambiguity does not name the candidates: %v", err)
	}
}

func TestRunsFilterOrderAndInterruptedRuns(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx := context.Background()
	record(t, s, "r_1", "run", t0, true)
	record(t, s, "r_2", "ask", t0.Add(time.Minute), true)
	record(t, s, "r_3", "ask", t0.Add(2*time.Minute), false) // the process died midway
	record(t, s, "r_4", "run", t0.Add(3*time.Minute), true)
	ids := func(f RunFilter) []string {
		t.Helper()
		runs, err := s.Runs(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range runs {
			out = append(out, r.RunID+":"+r.Status)
		}
		return out
	}
	tests := []struct {
		f    RunFilter
		want []string
	}{
		{RunFilter{}, []string{"r_4:succeeded", "r_3:running", "r_2:succeeded", "r_1:succeeded"}},
		{RunFilter{Limit: 2}, []string{"r_4:succeeded", "r_3:running"}},
		{RunFilter{Kind: "ask"}, []string{"r_3:running", "r_2:succeeded"}},
		{RunFilter{Kind: "run", Limit: 1}, []string{"r_4:succeeded"}},
		{RunFilter{SessionID: "s_ask"}, []string{"r_3:running", "r_2:succeeded"}},
		{RunFilter{Kind: "watch"}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ids(tt.f)); diff != "" {
			t.Errorf("Runs(%+v) (-want +got):\n%s", tt.f, diff)
		}
	}
}

func TestReindexRederivesTheRunsIndex(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	for i := range 5 {
		record(t, s, fmt.Sprintf("r_%d", i), []string{"run", "ask"}[i%2], t0.Add(time.Duration(i)*time.Hour), i != 2)
	}
	before, err := s.Runs(ctx, RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	// Wreck the index: it is a cache, so anyone may.
	db := rawDB(t, path)
	if _, err := db.Exec(`DELETE FROM runs WHERE run_id IN ('r_1', 'r_3'); UPDATE runs SET kind = 'bogus', started_at = ''`); err != nil {
		t.Fatal(err)
	}
	if err := s.Reindex(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := s.Runs(ctx, RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("runs after Reindex (-before +after):\n%s", diff)
	}
}

func TestReopenKeepsEverything(t *testing.T) {
	path := statePath(t)
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	wrote := record(t, s, "r_keep", "ask", t0, true)
	resID, hash, err := s.SaveResult(ctx, "r_keep", &quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}, Rows: [][]any{{int64(7)}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, Session{ID: "s_keep", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openStore(t, path)
	got, err := s.Events(ctx, "r_keep")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wrote, got); diff != "" {
		t.Errorf("events after reopen (-wrote +read):\n%s", diff)
	}
	res, err := s.Result(ctx, resID)
	if err != nil || res.Rows[0][0] != int64(7) {
		t.Errorf("result after reopen: %v, %v", res, err)
	}
	if _, h, _ := s.SaveResult(ctx, "r_other", res); h != hash {
		t.Errorf("same result, different hash: %s vs %s", h, hash)
	}
	if _, err := s.Session(ctx, "s_keep"); err != nil {
		t.Errorf("session after reopen: %v", err)
	}
}

func TestCanceledContext(t *testing.T) {
	s := openStore(t, statePath(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e, err := event.New("r_c", 1, t0, &event.RunStartedData{Kind: "run"})
	if err != nil {
		t.Fatal(err)
	}
	wantKind(t, s.Append(ctx, e), quarry.KindCanceled)
	_, err = s.Runs(ctx, RunFilter{})
	wantKind(t, err, quarry.KindCanceled)
}

// TestTwoStoresOnOneFile stands in for two quarry processes (say `serve`
// and a CLI run) opening and writing one state database at once.
func TestTwoStoresOnOneFile(t *testing.T) {
	path := statePath(t)
	ctx := context.Background()
	stores := make([]*Store, 4)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() {
			s, err := Open(ctx, path) // concurrent first opens race to migrate
			if err != nil {
				t.Error(err)
				return
			}
			stores[i] = s
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for i, s := range stores {
		t.Cleanup(func() { s.Close() })
		wg.Go(func() {
			for j := range 5 {
				if _, err := recordRun(s, fmt.Sprintf("r_%d_%d", i, j), "run", t0.Add(time.Duration(i*10+j)*time.Second), true); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	runs, err := stores[0].Runs(ctx, RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 20 {
		t.Errorf("%d runs, want 20", len(runs))
	}
	var n int
	if err := stores[1].db.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != SchemaVersion {
		t.Errorf("schema_migrations rows = %d, %v", n, err)
	}
}

// The store is where recorders send their events.
var _ event.Sink = (*Store)(nil)
