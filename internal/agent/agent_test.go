package agent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// leakScript asks for everything that could carry a customer's e-mail to
// the model: SELECT *, the table's description, samples of the column, a
// note quoting an address, a query naming the column, a search for it.
func leakScript(t *testing.T, w llmtest.Wire, countSQL string) *llmtest.Provider {
	return llmtest.NewProviderOver(t, w,
		llmtest.Reply(llmtest.ToolCall("t1", "run_query", `{"sql":"SELECT * FROM customers"}`)),
		llmtest.Reply(llmtest.ToolCall("t2", "describe_table", `{"table":"customers"}`)),
		llmtest.Reply(llmtest.ToolCall("t3", "sample_values", `{"table":"customers","column":"email"}`)),
		llmtest.Reply(llmtest.ToolCall("t4", "read_knowledge", `{"path":""}`)),
		llmtest.Reply(llmtest.ToolCall("t5", "read_knowledge", `{"path":"notes/customers.md"}`)),
		llmtest.Reply(llmtest.ToolCall("t6", "read_knowledge", `{"path":"notes/accounts.md"}`)),
		llmtest.Reply(llmtest.ToolCall("t7", "run_query", `{"sql":"SELECT name, email AS contact FROM customers"}`)),
		llmtest.Reply(llmtest.ToolCall("t8", "search_schema", `{"query":"email contact"}`)),
		llmtest.Reply(llmtest.ToolCall("t9", "run_query", `{"sql":"SELECT c.* FROM customers c ORDER BY c.id LIMIT 3"}`)),
		llmtest.Reply(llmtest.ToolCall("t10", "run_query", `{"sql":"`+countSQL+`"}`)),
		llmtest.Reply(llmtest.ToolCall("t11", "submit_answer", `{"answer":"The shop has this many customers.","sql":"`+countSQL+`"}`)),
	)
}

func TestRestrictedValuesNeverReachTheModel(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  func(*testing.T) *env
	}{{"small", smallEnv}, {"demo", demoEnv}} {
		t.Run(tc.name, func(t *testing.T) {
			overWires(t, func(t *testing.T, w llmtest.Wire) {
				e := tc.env(t)
				fake := leakScript(t, w, "SELECT count(*) AS customers FROM customers")
				out, err := e.agent(fake, false).Ask(context.Background(), e.recorder(), "how many customers do we have?", clock(), agentOpts())
				if err != nil {
					t.Fatalf("Ask: %v", err)
				}
				if out.Status != event.StatusSucceeded || out.Answer.Markdown == "" {
					t.Fatalf("status %q, answer %q", out.Status, out.Answer.Markdown)
				}
				if n := len(fake.Calls()); n != 11 {
					t.Fatalf("the model was called %d times, want 11", n)
				}
				emails := e.emails(t)
				var needles []string
				for _, m := range emails {
					needles = append(needles, m)
					if local, _, _ := strings.Cut(m, "@"); len(local) > 6 {
						needles = append(needles, local+"@")
					}
				}
				for s, calls := range fake.FindEach(needles) {
					t.Fatalf("the restricted value (or part of it) %q reached the model in calls %v", s, calls)
				}
				// The model did see the other columns, and was told why email was refused.
				if len(fake.Find("restricted")) == 0 {
					t.Error("the model was never told that a column is restricted")
				}
				if len(fake.Find("<result>")) == 0 || len(fake.Find("<knowledge")) == 0 || len(fake.Find("not instructions")) != 11 {
					t.Error("results are not fenced, or the system prompt does not say they are data")
				}
				st := e.state(t)
				// Three statements read the restricted column (two through a
				// star) and are refused by the policy before they run.
				if st.Status != event.StatusSucceeded || st.ToolCalls != 11 || st.Repairs != 3 || st.Confidence == nil {
					t.Errorf("fold: status %s, tools %d, repairs %d, confidence %v", st.Status, st.ToolCalls, st.Repairs, st.Confidence)
				}
				if st.SQL != "SELECT count(*) AS customers FROM customers" {
					t.Errorf("the answer's SQL is %q", st.SQL)
				}
				for _, ty := range []event.Type{event.ToolCalled, event.RepairAttempted, event.ModelCalled, event.ChecksRan, event.AnswerRendered} {
					if !slices.Contains(e.types(), ty) {
						t.Errorf("no %s event", ty)
					}
				}
			})
		})
	}
}

func agentOpts() agentOptions { return agentOptions{} }

func TestBadModelsEndTheRunWithAFailure(t *testing.T) {
	overWires(t, func(t *testing.T, w llmtest.Wire) {
		e := smallEnv(t)
		loop := make([]llmtest.Step, 20)
		for i := range loop {
			loop[i] = llmtest.Reply(llmtest.ToolCall("l", "search_schema", `{"query":"orders"}`))
		}
		bad := func(steps ...llmtest.Step) []llmtest.Step { return steps }
		for _, tc := range []struct {
			name   string
			steps  []llmtest.Step
			budget llm.Budget
			reason string
			kind   quarry.Kind
			want   string
		}{
			{"unknown tool", bad(llmtest.Reply(llmtest.ToolCall("x", "drop_table", `{}`))), llm.Budget{}, "unknown_tool", quarry.KindModel, "does not offer"},
			{"invalid arguments", bad(llmtest.Reply(llmtest.ToolCall("x", "run_query", `{"query":"SELECT 1"}`))), llm.Budget{}, "invalid_arguments", quarry.KindModel, "invalid arguments"},
			{"not json", bad(llmtest.Reply(llmtest.ToolCall("x", "run_query", `[1,2`))), llm.Budget{}, "invalid_arguments", quarry.KindModel, "invalid arguments"},
			{"loops", loop, llm.Budget{}, "max_steps", quarry.KindModel, "within 12 steps"},
			{"budget", loop, llm.Budget{MaxCalls: 3}, "budget", quarry.KindModel, "budget is spent"},
			{"prose only", bad(llmtest.Reply(llmtest.Text("Revenue is up.")), llmtest.Reply(llmtest.Text("It rose.")), llmtest.Reply(llmtest.Text("Up 5%."))), llm.Budget{}, "model", quarry.KindModel, "instead of calling its tools"},
			{"provider error", bad(llmtest.Fail(quarry.Errorf(quarry.KindModel, "the fake API refused the key (401)"))), llm.Budget{}, "model", quarry.KindModel, "refused the key"},
			{"repairs spent", bad(
				llmtest.Reply(llmtest.ToolCall("a", "run_query", `{"sql":"SELECT nope FROM customers"}`)),
				llmtest.Reply(llmtest.ToolCall("b", "run_query", `{"sql":"SELECT * FROM nowhere"}`)),
				llmtest.Reply(llmtest.ToolCall("c", "run_query", `{"sql":"DELETE FROM customers"}`)),
				llmtest.Reply(llmtest.ToolCall("d", "run_query", `{"sql":"SELEC 1"}`)),
			), llm.Budget{}, "repairs", "", "failed 4 times"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if tc.name == "not json" && w.Provider == llm.ProviderAnthropic {
					t.Skip("the Messages API sends a tool's input as a JSON object; it cannot arrive malformed")
				}
				e.events = nil
				a := e.agent(llmtest.NewProviderOver(t, w, tc.steps...), false)
				a.Limits.Budget = tc.budget
				out, err := a.Ask(context.Background(), e.recorder(), "revenue by country", clock(), agentOpts())
				if err == nil {
					t.Fatalf("no error; answer %q", out.Answer.Markdown)
				}
				if tc.kind != "" && quarry.KindOf(err) != tc.kind {
					t.Errorf("kind %s, want %s (%v)", quarry.KindOf(err), tc.kind, err)
				}
				if !strings.Contains(quarry.Message(err), tc.want) {
					t.Errorf("message %q does not say %q", quarry.Message(err), tc.want)
				}
				if out.Answer.Markdown != "" || out.Status == event.StatusSucceeded {
					t.Errorf("a failed run presents an answer: %q (%s)", out.Answer.Markdown, out.Status)
				}
				st := e.state(t)
				if st.FailureReason != tc.reason || st.Status == event.StatusSucceeded || st.Status == event.StatusRunning || st.Answer != "" {
					t.Errorf("fold: reason %q (want %q), status %s", st.FailureReason, tc.reason, st.Status)
				}
			})
		}
	})
}

func TestRepairFeedsTheClassifiedErrorBack(t *testing.T) {
	overWires(t, func(t *testing.T, w llmtest.Wire) {
		e := smallEnv(t)
		fake := llmtest.NewProviderOver(t, w,
			llmtest.Reply(llmtest.ToolCall("a", "run_query", `{"sql":"SELECT countryy, count(*) FROM customers GROUP BY 1"}`)),
			llmtest.Reply(llmtest.ToolCall("b", "run_query", `{"sql":"SELECT country, count(*) AS n FROM customers GROUP BY 1 ORDER BY 1"}`)),
			llmtest.Reply(llmtest.ToolCall("c", "submit_answer", `{"answer":"Germany has 1 customer; 99 is not in the result."}`)),
		)
		out, err := e.agent(fake, false).Ask(context.Background(), e.recorder(), "customers by country", clock(), agentOpts())
		if err != nil {
			t.Fatal(err)
		}
		second := string(fake.Calls()[1].Body)
		if !strings.Contains(second, "unknown_column") || !strings.Contains(second, "countryy") {
			t.Errorf("the repair request does not carry the classified real error: %s", second)
		}
		if out.Rows != 3 || !strings.Contains(out.Answer.Markdown, "Germany has 1 customer") {
			t.Errorf("rows %d, answer %q", out.Rows, out.Answer.Markdown)
		}
		var grounded string
		for _, c := range out.Report.Checks {
			if c.Name == "grounded_numbers" {
				grounded = c.Status
			}
		}
		if grounded != "warn" || out.Report.Confidence >= 1 {
			t.Errorf("an ungrounded number did not lower confidence: %s, %v", grounded, out.Report.Confidence)
		}
		if !strings.Contains(out.Answer.Markdown, "99 (not in the result)") {
			t.Errorf("the unbound number is not marked where it stands: %q", out.Answer.Markdown)
		}
	})
}

func TestManualModeProposesAndStops(t *testing.T) {
	overWires(t, func(t *testing.T, w llmtest.Wire) {
		e := smallEnv(t)
		fake := llmtest.NewProviderOver(t, w,
			llmtest.Reply(llmtest.ToolCall("a", "run_query", `{"sql":"SELECT 1"}`)),
		)
		_, err := e.agent(fake, true).Ask(context.Background(), e.recorder(), "customers by country", clock(), agentOpts())
		if err == nil || !strings.Contains(err.Error(), "does not offer") {
			t.Fatalf("run_query in manual mode: %v", err)
		}
		e.events = nil
		fake = llmtest.NewProviderOver(t, w,
			llmtest.Reply(llmtest.ToolCall("a", "propose_query", `{"sql":"SELECT country, count(*) AS n FROM customers GROUP BY country","columns":["country","n"]}`)),
		)
		out, err := e.agent(fake, true).Ask(context.Background(), e.recorder(), "customers by country", clock(), agentOpts())
		if err != nil {
			t.Fatal(err)
		}
		st := e.state(t)
		if out.Status != event.StatusAwaitingResults || st.Status != event.StatusAwaitingResults || st.ProposedSQL == "" {
			t.Errorf("status %s / %s, proposed %q", out.Status, st.Status, st.ProposedSQL)
		}
	})
}

func TestErrorClasses(t *testing.T) {
	for msg, want := range map[string]string{
		"no such column: countryy":                     "unknown_column",
		`column "x" does not exist`:                    "unknown_column",
		"Unknown column 'x' in 'field list'":           "unknown_column",
		"no such table: nowhere":                       "unknown_table",
		`relation "nowhere" does not exist`:            "unknown_table",
		"Table 'db.nowhere' doesn't exist":             "unknown_table",
		`column reference "id" is ambiguous`:           "ambiguous",
		`near "SELEC": syntax error`:                   "syntax",
		"operator does not exist: integer = text":      "type_mismatch",
		`invalid input syntax for type integer: "a"`:   "type_mismatch",
		"canceling statement due to statement timeout": "timeout",
		"something else entirely":                      "other",
	} {
		if got := agentClassify(errors.New(msg)); got != want {
			t.Errorf("Classify(%q) = %s, want %s", msg, got, want)
		}
	}
	if got := agentClassify(quarry.Errorf(quarry.KindRejected, "x")); got != "rejected" {
		t.Errorf("guard rejection: %s", got)
	}
	if got := agentClassify(quarry.Errorf(quarry.KindTooCostly, "x")); got != "too_costly" {
		t.Errorf("too costly: %s", got)
	}
}

func TestManualModeContinuesWithThePastedResult(t *testing.T) {
	overWires(t, func(t *testing.T, w llmtest.Wire) {
		e := smallEnv(t)
		fake := llmtest.NewProviderOver(t, w,
			llmtest.Reply(llmtest.ToolCall("a", "propose_query", `{"sql":"SELECT * FROM customers","columns":["id","name","email","country"]}`)),
		)
		a := e.agent(fake, true)
		if _, err := a.Ask(context.Background(), e.recorder(), "list customers", clock(), agentOpts()); err != nil {
			t.Fatal(err)
		}
		before := e.state(t)
		pasted := &quarry.Table{
			Columns: []quarry.Column{{Name: "id", Type: quarry.TypeInt}, {Name: "name", Type: quarry.TypeText}, {Name: "email", Type: quarry.TypeText}, {Name: "country", Type: quarry.TypeText}},
			Rows:    [][]any{{int64(1), "Ada", "ada.lovelace@example.org", "Germany"}},
		}
		e.mu.Lock()
		evs := slices.Clone(e.events)
		e.mu.Unlock()
		rec := event.ResumeRecorder(before.RunID, before.LastSeq, clock, event.SinkFunc(func(_ context.Context, x ...event.Event) error {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.events = append(e.events, x...)
			return nil
		}))
		out, err := a.Resume(context.Background(), rec, evs, agentPasted(pasted, "csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.Answer.Markdown, "run by you") || strings.Contains(out.Answer.Markdown, "ada.lovelace") {
			t.Errorf("answer: %s", out.Answer.Markdown)
		}
		st := e.state(t)
		if st.Status != event.StatusSucceeded || !st.RunByUser || st.Rows != 1 || st.Confidence == nil {
			t.Errorf("fold: %s, by user %v, rows %d", st.Status, st.RunByUser, st.Rows)
		}
		// A paste of another shape is refused.
		pasted.Columns = pasted.Columns[:2]
		if _, err := a.Resume(context.Background(), rec, evs, agentPasted(pasted, "csv")); err == nil || !strings.Contains(err.Error(), "has 2 columns") {
			t.Errorf("a paste of 2 columns for 4: %v", err)
		}
	})
}

func TestUnifiedDiff(t *testing.T) {
	got := agentDiff("SELECT a\nFROM t\nWHERE x = 1", "SELECT a\nFROM t2\nWHERE x = 1")
	want := "--- your query\n+++ fixed query\n@@ -1,3 +1,3 @@\n SELECT a\n-FROM t\n+FROM t2\n WHERE x = 1\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

func TestFollowUps(t *testing.T) {
	h := []agent.Turn{{Question: "revenue by country"}, {Question: "revenue last year?"}}
	for q, want := range map[string]string{
		"and by month?":          "revenue last year by month",
		"what about in Germany?": "revenue last year in Germany",
		"by channel":             "revenue last year by channel",
		"how many customers?":    "how many customers?",
	} {
		if got := agent.FollowUp(h, q); got != want {
			t.Errorf("FollowUp(%q) = %q, want %q", q, got, want)
		}
	}
	if got := agent.FollowUp(nil, "and by month?"); got != "and by month?" {
		t.Errorf("no history: %q", got)
	}
	// A turn that was not answered is nothing to build on (found from
	// outside: "delete everything", refused, then "and by country?").
	for _, st := range []string{"rejected", "unanswered", "failed"} {
		refused := []agent.Turn{{Question: "delete everything", Status: st}}
		if got := agent.FollowUp(refused, "and by country?"); got != "and by country?" {
			t.Errorf("after a %s turn: %q", st, got)
		}
	}
	if got := agent.FollowUp([]agent.Turn{{Question: "revenue in 2025", Status: "succeeded"}}, "and by country?"); got != "revenue in 2025 by country" {
		t.Errorf("after an answer: %q", got)
	}
	// A period of its own replaces the earlier one (found from outside:
	// "revenue by restaurant in 2025 in 2024", refused).
	for prev, want := range map[string]string{
		"revenue by restaurant in 2025": "revenue by restaurant in 2024",
		"revenue last year by channel":  "revenue by channel in 2024",
		"revenue by restaurant":         "revenue by restaurant in 2024",
	} {
		if got := agent.FollowUp([]agent.Turn{{Question: prev, Status: "succeeded"}}, "and in 2024?"); got != want {
			t.Errorf("FollowUp(%q, and in 2024?) = %q, want %q", prev, got, want)
		}
	}
	if got := agent.FollowUp([]agent.Turn{{Question: "headcount in 2025", Status: "succeeded"}}, "what about last month"); got != "headcount last month" {
		t.Errorf("what about last month: %q", got)
	}
}

func TestFollowUpCarriesTheConversation(t *testing.T) {
	overWires(t, func(t *testing.T, w llmtest.Wire) {
		e := smallEnv(t)
		fake := llmtest.NewProviderOver(t, w,
			llmtest.Reply(llmtest.ToolCall("a", "run_query", `{"sql":"SELECT country, sum(amount) AS revenue FROM orders JOIN customers ON customers.id = orders.customer_id GROUP BY country"}`)),
			llmtest.Reply(llmtest.ToolCall("b", "submit_answer", `{"answer":"Revenue by country."}`)),
		)
		h := []agent.Turn{{Question: "revenue", SQL: "SELECT sum(amount) AS revenue FROM orders", Answer: "Revenue is 136.75."}}
		if _, err := e.agent(fake, false).Ask(context.Background(), e.recorder(), "and by country?", clock(), agent.AskOptions{SessionID: "s_1", History: h}); err != nil {
			t.Fatal(err)
		}
		if len(fake.Find("<conversation>")) == 0 || len(fake.Find("SELECT sum(amount) AS revenue FROM orders")) == 0 {
			t.Error("the follow-up was sent without the earlier turn")
		}
		if st := e.state(t); st.SessionID != "s_1" {
			t.Errorf("session %q", st.SessionID)
		}
	})
}
