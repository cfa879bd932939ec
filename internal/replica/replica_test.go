package replica

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/store"
	pgstate "github.com/quarrydata/quarry/internal/store/postgres"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestStale(t *testing.T) {
	beats := map[string]time.Time{"alive": t0.Add(-10 * time.Second), "silent": t0.Add(-31 * time.Second), "edge": t0.Add(-30 * time.Second)}
	runs := []event.RunState{
		{RunID: "r_silent", Status: event.StatusRunning, Replica: "silent"},
		{RunID: "r_alive", Status: event.StatusRunning, Replica: "alive"},
		{RunID: "r_edge", Status: event.StatusRunning, Replica: "edge"},
		{RunID: "r_left", Status: event.StatusRunning, Replica: "left"}, // no heartbeat: it left, or never joined
		{RunID: "r_cli", Status: event.StatusRunning},                   // no replica: the CLI, or an older server
		{RunID: "r_done", Status: event.StatusSucceeded, Replica: "silent"},
		{RunID: "r_waiting", Status: event.StatusAwaitingResults, Replica: "silent"},
		{RunID: "r_failed", Status: event.StatusFailed, Replica: "left"},
		{RunID: "r_approval", Status: event.StatusAwaitingApproval, Replica: "silent"}, // waiting in a dead process: nobody will decide it there
		{RunID: "r_approval_alive", Status: event.StatusAwaitingApproval, Replica: "alive"},
	}
	var got []string
	for _, r := range Stale(runs, beats, t0, 30*time.Second) {
		got = append(got, r.RunID)
	}
	if diff := cmp.Diff([]string{"r_approval", "r_left", "r_silent"}, got); diff != "" {
		t.Errorf("stale runs (-want +got):\n%s", diff)
	}
}

// open returns a fresh SQLite state.
func open(t *testing.T) *sqlitestate.Store {
	t.Helper()
	st, err := sqlitestate.Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// start records the start of a run on a replica through Stamp, and one
// more event.
func start(t *testing.T, st store.State, runID, replica string) {
	t.Helper()
	rec := event.NewRecorder(runID, func() time.Time { return t0 }, Stamp(st, replica))
	ctx := context.Background()
	if err := rec.Emit(ctx, &event.RunStartedData{Kind: "ask", Question: "revenue"}); err != nil {
		t.Fatal(err)
	}
	if err := rec.Emit(ctx, &event.QuestionParsedData{Understood: []string{"revenue"}}); err != nil {
		t.Fatal(err)
	}
}

// sharedStore is a state several replicas can share: both backends'.
type sharedStore interface {
	store.State
	store.Replicas
}

// openPostgres opens a fresh state on the PostgreSQL test server, in a
// schema of its own; the test skips outside CI when there is none.
func openPostgres(t *testing.T) sharedStore {
	t.Helper()
	base := connectortest.URL(t, "QUARRY_TEST_POSTGRES_URL", os.LookupEnv)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "qreplica_" + hex.EncodeToString(b)
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	st, err := pgstate.Open(context.Background(), base+sep+"search_path="+schema, pgstate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		st.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, base); err == nil {
			conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
			conn.Close(ctx)
		}
	})
	return st
}

func TestSweepersRaceFinishEachRunOnce(t *testing.T) {
	for _, b := range []struct {
		name string
		open func(t *testing.T) sharedStore
	}{
		{"sqlite", func(t *testing.T) sharedStore { return open(t) }},
		{"postgres", openPostgres},
	} {
		t.Run(b.name, func(t *testing.T) { testSweepersRace(t, b.open(t)) })
	}
}

func testSweepersRace(t *testing.T, st sharedStore) {
	ctx := context.Background()
	if err := st.Heartbeat(ctx, "dead", t0.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := st.Heartbeat(ctx, "alive", t0); err != nil {
		t.Fatal(err)
	}
	if err := st.Heartbeat(ctx, "long-dead", t0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"r_1", "r_2", "r_3"} {
		start(t, st, id, "dead")
	}
	start(t, st, "r_alive", "alive")
	start(t, st, "r_cli", "")

	const sweepers = 4
	finished := make([][]string, sweepers)
	var wg sync.WaitGroup
	for i := range sweepers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := Sweep(ctx, st, t0.Add(time.Duration(i)*time.Millisecond), 30*time.Second)
			if err != nil {
				t.Error(err)
			}
			finished[i] = done
		}()
	}
	wg.Wait()
	beats, err := st.Replicas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := beats["long-dead"]; ok || len(beats) != 2 {
		t.Errorf("replicas after the sweeps: %v; the one silent for an hour should be gone", beats)
	}
	count := map[string]int{}
	for _, done := range finished {
		for _, id := range done {
			count[id]++
		}
	}
	if diff := cmp.Diff(map[string]int{"r_1": 1, "r_2": 1, "r_3": 1}, count); diff != "" {
		t.Errorf("finished by the sweepers (-want +got):\n%s", diff)
	}
	for _, id := range []string{"r_1", "r_2", "r_3", "r_alive", "r_cli"} {
		evs, err := st.Events(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		finishes := 0
		for _, e := range evs {
			if e.Type == event.RunFinished {
				finishes++
			}
		}
		stt, _ := event.Fold(evs)
		want, wantFinishes := event.StatusFailed, 1
		if id == "r_alive" || id == "r_cli" {
			want, wantFinishes = event.StatusRunning, 0
		}
		if stt.Status != want || finishes != wantFinishes {
			t.Errorf("%s: status %s with %d run.finished; want %s with %d", id, stt.Status, finishes, want, wantFinishes)
		}
		if want == event.StatusFailed && (stt.Error != Gone || stt.Replica != "dead") {
			t.Errorf("%s: error %q, replica %q", id, stt.Error, stt.Replica)
		}
	}
}

func TestLeaveFinishesOwnRunsAndLeaves(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	m := &Member{ID: "me", Store: st, Clock: func() time.Time { return t0 }}
	if err := m.Join(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Heartbeat(ctx, "other", t0); err != nil {
		t.Fatal(err)
	}
	start(t, st, "r_mine", "me")
	start(t, st, "r_theirs", "other")
	if err := m.Leave(ctx, Drained); err != nil {
		t.Fatal(err)
	}
	mine, _ := st.Run(ctx, "r_mine")
	theirs, _ := st.Run(ctx, "r_theirs")
	if mine.Status != event.StatusFailed || mine.Error != Drained || theirs.Status != event.StatusRunning {
		t.Errorf("mine %s %q, theirs %s", mine.Status, mine.Error, theirs.Status)
	}
	beats, _ := st.Replicas(ctx)
	if _, ok := beats["me"]; ok || len(beats) != 1 {
		t.Errorf("replicas after leaving: %v", beats)
	}
}

func TestHubWakesWatchersOfTheRun(t *testing.T) {
	h := NewHub()
	a, stopA := h.Watch("r_a")
	b, stopB := h.Watch("r_b")
	defer stopB()
	woken := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	h.Notify("r_a")
	h.Notify("r_a") // never blocks, however many
	if !woken(a) || woken(a) || woken(b) {
		t.Fatal("Notify(r_a) should wake r_a's watcher once and nobody else")
	}
	h.Notify("")
	if !woken(a) || !woken(b) {
		t.Fatal("Notify(\"\") should wake everyone")
	}
	stopA()
	h.Notify("r_a")
	if woken(a) {
		t.Fatal("a stopped watcher was woken")
	}
}
