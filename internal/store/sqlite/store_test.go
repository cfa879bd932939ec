package sqlite

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
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/storetest"
)

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

func TestOpenCreatesPrivateStateDatabase(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state folder: %v, mode %v; want 0700", err, fi.Mode().Perm())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	storetest.Record(t, s, "r_private", "run", storetest.T0, true)
	for _, side := range []string{path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(side); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v; want 0600 (it holds events and rows too)", side, err, fi.Mode().Perm())
		}
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
	storetest.WantKind(t, err, quarry.KindConfig)
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
	storetest.WantKind(t, err, quarry.KindConfig)
}

func TestEventsAreAppendOnlyInSQL(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	wrote := storetest.Record(t, s, "r_01LOCK", "run", storetest.T0, true)
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

func TestReindexRederivesTheRunsIndex(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	for i := range 5 {
		storetest.Record(t, s, fmt.Sprintf("r_%d", i), []string{"run", "ask"}[i%2], storetest.T0.Add(time.Duration(i)*time.Hour), i != 2)
	}
	before, err := s.Runs(ctx, store.RunFilter{})
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
	after, err := s.Runs(ctx, store.RunFilter{})
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
	wrote := storetest.Record(t, s, "r_keep", "ask", storetest.T0, true)
	resID, hash, err := s.SaveResult(ctx, "r_keep", &quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}, Rows: [][]any{{int64(7)}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, store.Session{ID: "s_keep", CreatedAt: storetest.T0}); err != nil {
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
				if _, err := storetest.RecordRun(s, fmt.Sprintf("r_%d_%d", i, j), "run", storetest.T0.Add(time.Duration(i*10+j)*time.Second), true); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	runs, err := stores[0].Runs(ctx, store.RunFilter{})
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

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t testing.TB) store.State {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), ".quarry", "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// TestPruneOnlyThroughTheTombstone attacks retention from raw SQL: events
// of an unfinished run cannot be marked pruned or deleted, a pruned run
// stays pruned, and a finished run's events cannot be deleted without the
// mark.
func TestPruneOnlyThroughTheTombstone(t *testing.T) {
	path := statePath(t)
	s := openStore(t, path)
	ctx := context.Background()
	storetest.Record(t, s, "r_done", "run", storetest.T0, true)
	live := storetest.Record(t, s, "r_live", "run", storetest.T0, false)
	db := rawDB(t, path)
	for _, stmt := range []string{
		`DELETE FROM events WHERE run_id = 'r_done'`,
		`INSERT INTO pruned_runs (run_id) VALUES ('r_live')`,
		`INSERT INTO pruned_runs (run_id) VALUES ('r_never')`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s\n  = %v; want an append-only abort", stmt, err)
		}
	}
	if _, err := s.Prune(ctx, store.PruneOptions{Before: storetest.T0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`DELETE FROM pruned_runs WHERE run_id = 'r_done'`,
		`UPDATE pruned_runs SET run_id = 'r_live'`,
		`INSERT INTO events (run_id, seq, type, version, at, data) VALUES ('r_done', 1, 'run.started', 1, '2026-06-30T09:00:00.000000000Z', '{"kind":"run"}')`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s\n  = %v; want an append-only abort", stmt, err)
		}
	}
	got, err := s.Events(ctx, "r_live")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(live, got); diff != "" {
		t.Errorf("live run changed (-before +after):\n%s", diff)
	}
}

// TestUpgradeFromVersion3 opens a state database written before owners and
// retention existed and finds its runs, sessions and results intact.
func TestUpgradeFromVersion3(t *testing.T) {
	path := statePath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT '')`); err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations()[:3] {
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
			t.Fatal(err)
		}
	}
	for _, stmt := range []string{
		`INSERT INTO events VALUES ('r_old', 1, 'run.started', 1, '2026-06-30T09:00:00.000000000Z', '{"kind":"ask","question":"q","session_id":"s_old"}')`,
		`INSERT INTO events VALUES ('r_old', 2, 'run.finished', 1, '2026-06-30T09:00:01.000000000Z', '{"status":"succeeded"}')`,
		`INSERT INTO runs (run_id, kind, status, session_id, started_at, finished_at, last_seq, events) VALUES ('r_old', 'ask', 'succeeded', 's_old', '2026-06-30T09:00:00.000000000Z', '2026-06-30T09:00:01.000000000Z', 2, 2)`,
		`INSERT INTO sessions VALUES ('s_old', 'q', 'r_old', '2026-06-30T09:00:00.000000000Z', '2026-06-30T09:00:01.000000000Z')`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	s := openStore(t, path)
	runs, err := s.Runs(ctx, store.RunFilter{SessionID: "s_old"})
	if err != nil || len(runs) != 1 || runs[0].Status != event.StatusSucceeded {
		t.Fatalf("runs after upgrade = %+v, %v", runs, err)
	}
	if sess, err := s.Session(ctx, "s_old"); err != nil || sess.LastRunID != "r_old" {
		t.Errorf("session after upgrade = %+v, %v", sess, err)
	}
	rep, err := s.Prune(ctx, store.PruneOptions{Before: storetest.T0.Add(time.Hour)})
	if err != nil || rep.Runs != 1 {
		t.Errorf("prune after upgrade = %+v, %v", rep, err)
	}
}

// TestOddPaths: the state database opens as a file: URI (for the log's
// mode); characters that mean something in a URI stay part of the name.
func TestOddPaths(t *testing.T) {
	for _, name := range []string{"a b", "x#y", "q?mode=ro", "p%20c", "ü"} {
		path := filepath.Join(t.TempDir(), name, "state.db")
		s := openStore(t, path)
		storetest.Record(t, s, "r_odd", "run", storetest.T0, true)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%q: the database is not where it was asked to be: %v", name, err)
		}
		if runs, err := s.Runs(context.Background(), store.RunFilter{}); err != nil || len(runs) != 1 {
			t.Errorf("%q: runs %v, %v", name, runs, err)
		}
	}
}
