package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/store"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// TestAskWaitsForApproval: `quarry ask` on a connection with approval:
// required says that its statement waits and where it is decided, and
// goes on once someone else, through the shared state database, approves
// it; the answer rests on the approved statement.
func TestAskWaitsForApproval(t *testing.T) {
	dir := project(t)
	requireApproval(t, filepath.Join(dir, "quarry.yaml"))
	srv := llmtest.NewAnthropicServer(t, "sk-test",
		llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "t1", Name: "run_query", Input: json.RawMessage(`{"sql":"` + byCountry + `"}`)}}},
		llmtest.Answer{ToolUses: []llm.ToolUse{{ID: "t2", Name: "submit_answer", Input: json.RawMessage(`{"answer":"Each country has one customer.","sql":"` + byCountry + `"}`)}}},
	)
	done := make(chan result, 1)
	go func() {
		done <- quarryEnv(t, map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": srv.URL}, "",
			"-C", dir, "ask", "--json", "--model", "anthropic:claude-sonnet-5-5", "how many customers per country?")
	}()

	// Another process on the same state database: it finds the statement
	// waiting and approves it.
	ctx := context.Background()
	var runID string
	deadline := time.Now().Add(time.Minute)
	for runID == "" {
		if time.Now().After(deadline) {
			t.Fatal("no statement came to wait for approval")
		}
		time.Sleep(20 * time.Millisecond)
		st, err := sqlitestate.Open(ctx, filepath.Join(dir, ".quarry", "state.db"))
		if err != nil {
			continue
		}
		runs, err := st.Runs(ctx, store.RunFilter{Kind: "ask"})
		for _, r := range runs {
			if p := r.Pending(); err == nil && p != nil && p.SQL == byCountry {
				runID = r.RunID
				if _, err := analyst.Decide(ctx, st, runID, p.Statement, event.ApprovalDecidedData{Approved: true, By: "ann"}, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
		}
		st.Close()
	}
	r := <-done
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "statement s1 of run "+runID+" waits for approval") {
		t.Errorf("stderr does not say that the statement waits: %s", r.stderr)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || j["status"] != "succeeded" || j["sql"] != byCountry {
		t.Fatalf("answer %v (%v): %s", j, err, r.stdout)
	}
	st := lastRun(t, dir)
	if st.RunID != runID || len(st.Approvals) != 1 || st.Approvals[0].Decided == nil || !st.Approvals[0].Decided.Approved || st.Approvals[0].Why != "connection" {
		t.Errorf("run %s: approvals %+v", st.RunID, st.Approvals)
	}
}

// decideNext finds the statement that comes to wait on the project's
// state database with sql, and decides it as a person on another server
// would; it returns the run's ID.
func decideNext(t *testing.T, dir, sql string, d event.ApprovalDecidedData) <-chan string {
	out := make(chan string, 1)
	go func() {
		ctx := context.Background()
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			st, err := sqlitestate.Open(ctx, filepath.Join(dir, ".quarry", "state.db"))
			if err != nil {
				continue
			}
			runs, _ := st.Runs(ctx, store.RunFilter{})
			for _, r := range runs {
				if p := r.Pending(); p != nil && p.SQL == sql {
					_, err := analyst.Decide(ctx, st, r.RunID, p.Statement, d, time.Now())
					st.Close()
					if err != nil {
						out <- "error: " + err.Error()
					} else {
						out <- r.RunID
					}
					return
				}
			}
			st.Close()
		}
		out <- "error: nothing came to wait"
	}()
	return out
}

// TestMCPRunQueryWaitsForApproval: an MCP client's run_query is a model's
// statement as it wrote it: on a connection with approval: required it
// waits; refused, nothing runs and the client reads why; approved, it runs.
func TestMCPRunQueryWaitsForApproval(t *testing.T) {
	dir := project(t)
	requireApproval(t, filepath.Join(dir, "quarry.yaml"))
	p := mcpInProcess(t, nil, "-C", dir, "mcp")

	const sql = "SELECT name FROM customers ORDER BY id"
	decided := decideNext(t, dir, sql, event.ApprovalDecidedData{Approved: false, By: "ann", Reason: "names are private"})
	res, _ := callJSON(t, p.cs, "run_query", map[string]any{"sql": sql})
	refused := <-decided
	if strings.HasPrefix(refused, "error:") {
		t.Fatal(refused)
	}
	if !res.IsError || !strings.Contains(textOf(res), "refused by ann: names are private; nothing ran") {
		t.Fatalf("a refused run_query: %s", textOf(res))
	}
	st := lastRun(t, dir)
	if st.RunID != refused || st.Status != event.StatusRejected || st.ResultID != "" || st.Rows != 0 || len(st.Approvals) != 1 {
		t.Errorf("the refused run: %s %s result %q approvals %+v", st.RunID, st.Status, st.ResultID, st.Approvals)
	}

	decided = decideNext(t, dir, sql, event.ApprovalDecidedData{Approved: true, By: "ann"})
	res, rq := callJSON(t, p.cs, "run_query", map[string]any{"sql": sql})
	if id := <-decided; strings.HasPrefix(id, "error:") {
		t.Fatal(id)
	}
	if res.IsError || len(rq["rows"].([]any)) != 3 {
		t.Fatalf("an approved run_query: %s", textOf(res))
	}
}
