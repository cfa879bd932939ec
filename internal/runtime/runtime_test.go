package runtime

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/store"
)

// demoTemplate is a demo project built once per test binary: under the
// race detector a build takes well over a minute, so each test copies it.
var demoTemplate struct {
	sync.Once
	dir string
	err error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if demoTemplate.dir != "" {
		_ = os.RemoveAll(demoTemplate.dir)
	}
	os.Exit(code)
}

// demoRuntime is a runtime over a fresh copy of the demo project.
func demoRuntime(t *testing.T) *Runtime {
	t.Helper()
	demoTemplate.Do(func() {
		demoTemplate.dir, demoTemplate.err = os.MkdirTemp("", "quarry-runtime-demo-")
		if demoTemplate.err != nil {
			return
		}
		// scripts/test.sh builds the demo project once from this checkout
		// (quarry init --demo --anchor 2026-06-30, which is Init below;
		// the build is deterministic, byte for byte) and names it here,
		// sparing the minutes a build takes under the race detector.
		if built := os.Getenv("QUARRY_TEST_DEMO_PROJECT"); built != "" {
			demoTemplate.err = os.CopyFS(filepath.Join(demoTemplate.dir, "demo"), os.DirFS(built))
			return
		}
		anchor := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
		_, demoTemplate.err = Init(context.Background(), filepath.Join(demoTemplate.dir, "demo"), InitOptions{Demo: true, Anchor: anchor, Seed: 1, Now: time.Now})
	})
	if demoTemplate.err != nil {
		t.Fatal(demoTemplate.err)
	}
	dir := filepath.Join(t.TempDir(), "demo")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(demoTemplate.dir, "demo"))); err != nil {
		t.Fatal(err)
	}
	r := New(Options{
		Load: func() (*config.Config, error) {
			return config.Load(filepath.Join(dir, config.FileName), func(string) (string, bool) { return "", false })
		},
		Now:    time.Now,
		Random: rand.Reader,
	})
	t.Cleanup(r.Close)
	return r
}

// TestAskThroughEveryPath asks through the runtime's request API: a
// question on its own (the builtin planner), a conversation (the agent,
// with a follow-up made whole and the session recorded on both runs), and
// the server's Ask, which must say the same as Ask.
func TestAskThroughEveryPath(t *testing.T) {
	r := demoRuntime(t)
	ctx := context.Background()
	day := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)

	ans, err := r.Ask(ctx, AskRequest{Question: "how many customers in Germany", AsOf: day})
	if err != nil || ans.Outcome == nil || ans.Outcome.Status != event.StatusSucceeded || ans.Conversational {
		t.Fatalf("builtin ask: %+v, %v", ans, err)
	}
	if ans.Outcome.Reading == nil || ans.Outcome.Reading.Text == "" {
		t.Errorf("no reading of the question: %+v", ans.Outcome)
	}
	builtinSQL := ans.Outcome.SQL

	first, err := r.Ask(ctx, AskRequest{Question: "revenue in 2025", AsOf: day, Session: "s_test"})
	if err != nil || first.SessionID != "s_test" || !first.Conversational {
		t.Fatalf("first turn: %+v, %v", first, err)
	}
	second, err := r.Ask(ctx, AskRequest{Question: "and by channel?", AsOf: day, Session: "s_test"})
	if err != nil || second.ReadAs != "revenue in 2025 by channel" || second.Outcome.Status != event.StatusSucceeded {
		t.Fatalf("follow-up: %+v, %v", second, err)
	}
	st, err := r.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := st.Runs(ctx, store.RunFilter{SessionID: "s_test"})
	if err != nil || len(runs) != 2 {
		t.Fatalf("the session's runs: %d, %v", len(runs), err)
	}

	srv, release, err := r.Server(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	rec, err := r.Recorder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := srv.Ask(ctx, rec, "how many customers in Germany", day, agent.AskOptions{})
	if err != nil || out.SQL != builtinSQL || out.Report.Confidence != ans.Outcome.Report.Confidence {
		t.Errorf("the server's Ask says otherwise: %+v, %v", out, err)
	}
}

// TestContinueNeedsAnEarlierQuestion: --continue in a project with no
// question yet is refused, not answered on its own.
func TestContinueNeedsAnEarlierQuestion(t *testing.T) {
	r := demoRuntime(t)
	_, err := r.Ask(context.Background(), AskRequest{Question: "and by month?", AsOf: time.Now(), Continue: true})
	if err == nil {
		t.Fatal("a continuation of nothing was answered")
	}
}

// TestRecordAsNamesTheReplica: a serve process's own runs (a monitor's
// check, a workflow's steps) name its replica once RecordAs is called, so
// that the replicas' sweep finishes them if the process dies; before, and
// in a runtime that never calls it (the CLI), they name none.
func TestRecordAsNamesTheReplica(t *testing.T) {
	ctx := context.Background()
	r := demoRuntime(t)
	record := func() event.RunState {
		t.Helper()
		rec, err := r.Recorder(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.Emit(ctx, &event.RunStartedData{Kind: "watch", Question: "orders today"}); err != nil {
			t.Fatal(err)
		}
		if err := rec.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := r.Store(ctx)
		if err != nil {
			t.Fatal(err)
		}
		run, err := st.Run(ctx, rec.RunID())
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	if got := record().Replica; got != "" {
		t.Errorf("a run before RecordAs names replica %q", got)
	}
	r.RecordAs("host-rep_1")
	if got := record().Replica; got != "host-rep_1" {
		t.Errorf("a run after RecordAs names replica %q, want host-rep_1", got)
	}
}
