package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/store/storetest"
)

// schemaURL returns the test server's URL with a new schema of its own as
// the search_path, dropped when the test ends.
func schemaURL(t testing.TB) (url, schema string) {
	t.Helper()
	base := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	b := make([]byte, 6)
	rand.Read(b)
	schema = "qstate_" + hex.EncodeToString(b)
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
	return base + sep + "search_path=" + schema, schema
}

func open(t testing.TB) *Store {
	t.Helper()
	url, _ := schemaURL(t)
	s, err := Open(context.Background(), url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t testing.TB) store.State { return open(t) })
}

func BenchmarkState(b *testing.B) {
	storetest.Bench(b, func(t testing.TB) store.State { return open(t) })
}

// BenchmarkBaselineInsert is the floor AppendEvent is measured against:
// one plain INSERT of an event-shaped row per round trip into a table
// with no trigger and no index but its key, on the same server.
func BenchmarkBaselineInsert(b *testing.B) {
	url, schema := schemaURL(b)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		b.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE baseline (run_id text, seq bigint, type text, version int, at text, data text, PRIMARY KEY (run_id, seq))`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := conn.Exec(ctx, `INSERT INTO baseline VALUES ($1, $2, $3, $4, $5, $6)`, "r_bench", i, "sql.generated", 1, "2026-01-01T00:00:00Z", `{"sql":"SELECT 1","source":"user"}`); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestAppendOnlyInSQL attacks the log from plain SQL on the same role:
// updates, deletes, truncation, overwrites and pruning an unfinished run
// are refused by the database itself.
func TestAppendOnlyInSQL(t *testing.T) {
	url, schema := schemaURL(t)
	ctx := context.Background()
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.Record(t, s, "r_done", "run", storetest.T0, true)
	live := storetest.Record(t, s, "r_live", "run", storetest.T0, false)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	attack := func(stmts ...string) {
		t.Helper()
		for _, stmt := range stmts {
			if _, err := conn.Exec(ctx, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s\n  = %v; want an append-only refusal", stmt, err)
			}
		}
	}
	attack(
		`UPDATE events SET data = '{}' WHERE run_id = 'r_live'`,
		`DELETE FROM events WHERE run_id = 'r_live' AND seq = 2`,
		`DELETE FROM events WHERE run_id = 'r_done'`,
		`TRUNCATE events`,
		`INSERT INTO events (run_id, seq, type, version, at, data) VALUES ('r_live', 2, 'sql.generated', 1, '2026-06-30T09:00:00.000000000Z', '{}') ON CONFLICT (run_id, seq) DO UPDATE SET data = excluded.data`,
		`INSERT INTO pruned_runs (run_id) VALUES ('r_live')`,
		`TRUNCATE pruned_runs`,
	)
	// A temporary table named like the real one must not stand in for it
	// inside the triggers (found from outside: the functions searched
	// pg_temp first).
	for _, stmt := range []string{
		`CREATE TEMP TABLE pruned_runs (run_id text)`,
		`INSERT INTO pg_temp.pruned_runs VALUES ('r_live')`,
		`CREATE TEMP TABLE events (run_id text, type text, data text)`,
		`INSERT INTO pg_temp.events VALUES ('r_live', 'run.finished', '{"status":"succeeded"}')`,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	attack(
		`DELETE FROM `+schema+`.events WHERE run_id = 'r_live' AND seq = 2`,
		`INSERT INTO `+schema+`.pruned_runs (run_id) VALUES ('r_live')`,
	)
	if _, err := conn.Exec(ctx, `DROP TABLE pg_temp.pruned_runs, pg_temp.events`); err != nil {
		t.Fatal(err)
	}
	// A marked run goes whole or not at all.
	storetest.Record(t, s, "r_done2", "run", storetest.T0, true)
	attack(`BEGIN; INSERT INTO pruned_runs (run_id) VALUES ('r_done2'); DELETE FROM events WHERE run_id = 'r_done2' AND seq = 2; COMMIT`)
	if got, err := s.Events(ctx, "r_done2"); err != nil || len(got) != 5 {
		t.Errorf("r_done2 after a partial delete: %d events, %v; want all 5", len(got), err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO events (run_id, seq, type, version, at, data) VALUES ('r_live', 1, 'run.started', 1, 'x', '{}')`); err == nil {
		t.Error("a second event under (r_live, 1) was stored")
	}
	if _, err := s.Prune(ctx, store.PruneOptions{Before: storetest.T0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	attack(
		`DELETE FROM pruned_runs WHERE run_id = 'r_done'`,
		`UPDATE pruned_runs SET run_id = 'r_live'`,
		`INSERT INTO events (run_id, seq, type, version, at, data) VALUES ('r_done', 1, 'run.started', 1, '2026-06-30T09:00:00.000000000Z', '{"kind":"run"}')`,
	)
	got, err := s.Events(ctx, "r_live")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(live, got); diff != "" {
		t.Errorf("live run changed (-before +after):\n%s", diff)
	}
}

// TestReplicasOpenTogether stands in for several quarry replicas starting
// at once on a new schema: they migrate once and all write.
func TestReplicasOpenTogether(t *testing.T) {
	url, _ := schemaURL(t)
	ctx := context.Background()
	stores := make([]*Store, 4)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() {
			s, err := Open(ctx, url, Options{MaxConns: 2})
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
				}
			}
		})
	}
	wg.Wait()
	runs, err := stores[0].Runs(ctx, store.RunFilter{})
	if err != nil || len(runs) != 20 {
		t.Errorf("%d runs, %v; want 20", len(runs), err)
	}
}

// TestReindexRederivesTheRunsIndex wrecks the index, a cache anyone may
// rebuild, and rebuilds it.
func TestReindexRederivesTheRunsIndex(t *testing.T) {
	url, _ := schemaURL(t)
	ctx := context.Background()
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 5 {
		storetest.Record(t, s, fmt.Sprintf("r_%d", i), []string{"run", "ask"}[i%2], storetest.T0.Add(time.Duration(i)*time.Hour), i != 2)
	}
	before, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM runs WHERE run_id IN ('r_1', 'r_3'); UPDATE runs SET kind = 'bogus', started_at = ''`); err != nil {
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

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	_, err := Open(ctx, "postgres://quarry:s3cret@127.0.0.1:1/state?connect_timeout=2", Options{})
	storetest.WantKind(t, err, quarry.KindConnection)
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("the password is in the message: %v", err)
	}
	_, err = Open(ctx, "postgres://a:b@host:notaport/db", Options{})
	storetest.WantKind(t, err, quarry.KindConfig)
	if strings.Contains(err.Error(), ":b@") {
		t.Errorf("the password is in the message: %v", err)
	}
	// A state schema written by a newer quarry is refused.
	url, _ := schemaURL(t)
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, true)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(ctx, url, Options{})
	storetest.WantKind(t, err, quarry.KindConfig)
	if !strings.Contains(err.Error(), "upgrade quarry") {
		t.Errorf("message does not say what to do: %v", err)
	}
}

func TestSuccessor(t *testing.T) {
	for in, want := range map[string]string{"r_01": "r_02", "r_0Ä": "r_0Å", "a\uD7FF": "a\uE000"} {
		if got, ok := successor(in); !ok || got != want {
			t.Errorf("successor(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := successor("a\U0010FFFF"); ok {
		t.Error("the last rune has no successor")
	}
}

// The store is where recorders send their events.
var _ event.Sink = (*Store)(nil)

// TestForgedResultIsRefused: as on SQLite, a results row rewritten with
// another body and its hash does not match the run's log and is refused.
func TestForgedResultIsRefused(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	id, hash, err := s.SaveResult(ctx, "r_forge", &quarry.Table{Columns: []quarry.Column{{Name: "v"}}, Rows: [][]any{{"original"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := event.NewRecorder("r_forge", storetest.Clock(storetest.T0), s)
	for _, p := range []event.Payload{&event.RunStartedData{Kind: "run"}, &event.QueryExecutedData{Rows: 1, ResultID: id, ResultHash: hash}} {
		if err := r.Emit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	other, _, err := s.SaveResult(ctx, "r_other", &quarry.Table{Columns: []quarry.Column{{Name: "v"}}, Rows: [][]any{{"forged"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, `UPDATE results SET body = o.body, hash = o.hash FROM results AS o WHERE o.id = $1 AND results.id = $2`, other, id); err != nil {
		t.Fatal(err)
	}
	_, err = s.Result(ctx, id)
	storetest.WantKind(t, err, quarry.KindInternal)
	if !strings.Contains(err.Error(), "does not match its run's log") {
		t.Errorf("message = %v", err)
	}
}

// TestListenHearsEveryAppend: a listener hears the run of each event
// stored, by whichever store on the state stored it.
func TestListenHearsEveryAppend(t *testing.T) {
	url, _ := schemaURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stores [2]*Store
	for i := range stores {
		s, err := Open(ctx, url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	heard := make(chan string, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		stores[0].Listen(ctx, func(runID string) { heard <- runID })
	}()
	if got := <-heard; got != "" {
		t.Fatalf("first call %q, want \"\" (listening)", got)
	}
	storetest.Record(t, stores[1], "r_heard", "ask", storetest.T0, true)
	select {
	case got := <-heard:
		if got != "r_heard" {
			t.Fatalf("heard %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notification")
	}
	cancel()
	<-done
}
