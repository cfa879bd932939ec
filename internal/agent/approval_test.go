package agent_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// countingConn records every statement that reaches the database.
type countingConn struct {
	agent.Querier
	mu  sync.Mutex
	ran []string
}

func (c *countingConn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	c.mu.Lock()
	c.ran = append(c.ran, sql)
	c.mu.Unlock()
	return c.Querier.Query(ctx, sql, opts)
}

func (c *countingConn) statements() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.ran)
}

// approvalRun is an agent in approval mode over e, whose run is recorded
// in a real state database, and the statements that reached e's database.
func approvalRun(t *testing.T, e *env, fake *llmtest.Provider, timeout time.Duration, clock func() time.Time) (*agent.Agent, *sqlitestate.Store, *countingConn) {
	t.Helper()
	st, err := sqlitestate.Open(t.Context(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := e.agent(fake, false)
	conn := &countingConn{Querier: e.conn}
	a.Conn, a.Clock = conn, clock
	a.Approval = &analyst.Approval{Log: st, AskedBy: "bob", Why: "person", Timeout: timeout, Poll: 5 * time.Millisecond}
	return a, st, conn
}

// decideEach decides the statements of run runID as they come to wait,
// one decision each, in order, as a person on another replica would.
func decideEach(t *testing.T, st *sqlitestate.Store, runID string, decisions ...event.ApprovalDecidedData) <-chan error {
	done := make(chan error, 1)
	go func() {
		for i, d := range decisions {
			id := "s" + string(rune('1'+i))
			for {
				evs, err := st.Events(context.Background(), runID)
				if err == nil {
					s, _ := event.Fold(evs)
					if p := s.Pending(); p != nil && p.Statement == id {
						if s.Status != event.StatusAwaitingApproval {
							done <- fmt.Errorf("a run with a statement waiting folds to %s", s.Status)
							return
						}
						break
					}
				}
				time.Sleep(2 * time.Millisecond)
			}
			if _, err := analyst.Decide(context.Background(), st, runID, id, d, clock()); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	return done
}

// TestApprovalModeWholeLoop: a model's statement waits for a person; a
// refused one never reaches the database and the model reads why; the
// approved one runs; every step is in the run's log.
func TestApprovalModeWholeLoop(t *testing.T) {
	e := smallEnv(t)
	// It would fail at run time (integer overflow) if it ever ran.
	const refused = "SELECT abs(-9223372036854775807 - 1) AS boom FROM orders"
	const approved = "SELECT count(*) AS orders FROM orders"
	fake := llmtest.NewProviderOver(t, llmtest.Wires()[0],
		llmtest.Reply(llmtest.ToolCall("t1", "run_query", `{"sql":"`+refused+`"}`)),
		llmtest.Reply(llmtest.ToolCall("t2", "run_query", `{"sql":"`+approved+`"}`)),
		llmtest.Reply(llmtest.ToolCall("t3", "submit_answer", `{"answer":"There are 4 orders.","sql":"`+approved+`"}`)),
	)
	a, st, conn := approvalRun(t, e, fake, time.Minute, clock)
	done := decideEach(t, st, "r_test",
		event.ApprovalDecidedData{Approved: false, By: "ann", Reason: "that reads no real figure"},
		event.ApprovalDecidedData{Approved: true, By: "ann"})
	out, err := a.Ask(t.Context(), event.NewRecorder("r_test", clock, st), "how many orders?", clock(), agentOpts())
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if out.Status != event.StatusSucceeded {
		t.Fatalf("status %s: %s", out.Status, out.Message)
	}
	if got := conn.statements(); !slices.Equal(got, []string{approved}) {
		t.Errorf("statements that reached the database: %q; want only the approved one", got)
	}
	if len(fake.Find("the statement was refused by ann: that reads no real figure; nothing ran")) == 0 {
		t.Error("the model was not told that its statement was refused, and why")
	}
	run, err := st.Run(t.Context(), "r_test")
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != event.StatusSucceeded || len(run.Approvals) != 2 {
		t.Fatalf("fold: status %s, approvals %+v", run.Status, run.Approvals)
	}
	first, second := run.Approvals[0], run.Approvals[1]
	if first.SQL != refused || first.Decided == nil || first.Decided.Approved || first.Decided.By != "ann" ||
		first.AskedBy != "bob" || first.Question != "how many orders?" || !first.Guard.Allowed || first.Interpretation == "" {
		t.Errorf("first approval: %+v, decided %+v", first, first.Decided)
	}
	if second.SQL != approved || second.Decided == nil || !second.Decided.Approved {
		t.Errorf("second approval: %+v", second)
	}
	evs, err := st.Events(t.Context(), "r_test")
	if err != nil {
		t.Fatal(err)
	}
	var seq []event.Type
	for _, ev := range evs {
		switch ev.Type {
		case event.GuardChecked, event.ApprovalRequested, event.ApprovalDecided, event.QueryExecuted, event.QueryFailed, event.RepairAttempted:
			seq = append(seq, ev.Type)
		}
	}
	want := []event.Type{event.GuardChecked, event.ApprovalRequested, event.ApprovalDecided, event.RepairAttempted,
		event.GuardChecked, event.ApprovalRequested, event.ApprovalDecided, event.QueryExecuted}
	if !slices.Equal(seq, want) {
		t.Errorf("events %v\nwant %v", seq, want)
	}
}

// TestApprovalTimeoutEndsTheRun: nobody decides; the run records the
// refusal itself, ends rejected with a message that says so, and nothing
// reached the database.
func TestApprovalTimeoutEndsTheRun(t *testing.T) {
	e := smallEnv(t)
	fake := llmtest.NewProviderOver(t, llmtest.Wires()[0],
		llmtest.Reply(llmtest.ToolCall("t1", "run_query", `{"sql":"SELECT count(*) AS n FROM orders"}`)),
	)
	a, st, conn := approvalRun(t, e, fake, 40*time.Millisecond, time.Now)
	out, err := a.Ask(t.Context(), event.NewRecorder("r_wait", time.Now, st), "how many orders?", clock(), agentOpts())
	if err == nil || quarry.KindOf(err) != quarry.KindRejected || !strings.Contains(quarry.Message(err), "nobody decided in time") {
		t.Fatalf("Ask: %v; want a rejection that says nobody decided", err)
	}
	if out.Status != event.StatusRejected {
		t.Errorf("status %s", out.Status)
	}
	if got := conn.statements(); len(got) != 0 {
		t.Errorf("statements reached the database: %q", got)
	}
	run, err := st.Run(t.Context(), "r_wait")
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != event.StatusRejected || run.FailureReason != "approval_timeout" || len(run.Approvals) != 1 ||
		run.Approvals[0].Decided == nil || !run.Approvals[0].Decided.TimedOut || run.Approvals[0].Decided.By != "quarry" {
		t.Errorf("fold: status %s, reason %s, approvals %+v", run.Status, run.FailureReason, run.Approvals)
	}
	// A decision after the run ended is refused.
	if _, err := analyst.Decide(t.Context(), st, "r_wait", "s1", event.ApprovalDecidedData{Approved: true, By: "ann"}, time.Now()); quarry.KindOf(err) != quarry.KindConflict {
		t.Errorf("a late decision: %v; want a conflict", err)
	}
}
