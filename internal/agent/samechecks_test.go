package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// checksOf returns the checks.ran event of a log: the checks (name and
// status) and the confidence.
func checksOf(t *testing.T, events []event.Event) ([]string, float64) {
	t.Helper()
	for _, e := range events {
		if e.Type != event.ChecksRan {
			continue
		}
		p, err := event.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		d := p.(*event.ChecksRanData)
		var out []string
		for _, c := range d.Checks {
			out = append(out, c.Name+":"+c.Status)
		}
		return out, d.Confidence
	}
	t.Fatal("no checks.ran event")
	return nil, 0
}

// pipelineSteps returns what a log says the pipeline did with a statement
// (sql.generated, guard.checked, query.executed or query.failed,
// checks.ran), without what differs by planner or by clock: the source
// that wrote the SQL, durations and result IDs.
func pipelineSteps(t *testing.T, events []event.Event) []string {
	t.Helper()
	var out []string
	for _, e := range events {
		p, err := event.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		switch d := p.(type) {
		case *event.SQLGeneratedData:
			out = append(out, "sql.generated "+d.SQL)
		case *event.GuardCheckedData:
			b, _ := json.Marshal(d)
			out = append(out, "guard.checked "+string(b))
		case *event.QueryExecutedData:
			d.DurationMS, d.ResultID = 0, ""
			b, _ := json.Marshal(d)
			out = append(out, "query.executed "+string(b))
		case *event.QueryFailedData:
			d.DurationMS = 0
			b, _ := json.Marshal(d)
			out = append(out, "query.failed "+string(b))
		case *event.ChecksRanData:
			b, _ := json.Marshal(d)
			out = append(out, "checks.ran "+string(b))
		}
	}
	return out
}

// readingOf is the text of a log's question.read event, or "".
func readingOf(t *testing.T, events []event.Event) string {
	t.Helper()
	for _, e := range events {
		if e.Type == event.QuestionRead {
			p, err := event.Decode(e)
			if err != nil {
				t.Fatal(err)
			}
			return p.(*event.ReadingData).Text
		}
	}
	return ""
}

// TestSameQuerySameChecks: the SQL the builtin planner reaches and the same
// query asked for by a model (query_metric) get the same pipeline events
// (one guard → execute → record → verify for every planner), the same
// checks and the same confidence. The checks once drifted: a model's
// metric query was not held to its expected row count, its filter values
// or its fan-out guard.
func TestSameQuerySameChecks(t *testing.T) {
	questions := []string{
		"What was revenue in Q1 2026?",                 // one total: one row expected
		"how many refunded orders did we have in 2025", // a filter on a known value
		"revenue by month last year",
		"top 5 products by revenue in 2025", // a limit
		"average order value by channel in 2025",
		"how many paying customers did we have in 2025",
		"gross margin in 2025",
	}
	for _, q := range questions {
		t.Run(q, func(t *testing.T) {
			e := demoEnv(t)
			pl := e.k.Planner.Plan(q, clock())
			if pl.Query == nil {
				t.Fatalf("the builtin planner reads %q as %s, not a metric query; pick another question", q, pl.Kind)
			}
			b := &analyst.Analyst{Conn: e.conn, Guard: e.guard, Connection: "test"}
			out, err := b.Ask(context.Background(), e.recorder(), e.k, q, clock())
			if err != nil || out.SQL == "" {
				t.Fatalf("builtin: %v (status %s)", err, out.Status)
			}
			e.mu.Lock()
			builtin := e.events
			e.events = nil
			e.mu.Unlock()
			wantChecks, wantConf := checksOf(t, builtin)

			query, err := json.Marshal(pl.Query)
			if err != nil {
				t.Fatal(err)
			}
			submit, _ := json.Marshal(map[string]string{"answer": "Here is what the data says.", "sql": out.SQL})
			fake := llmtest.NewProviderOver(t, llmtest.Wires()[0],
				llmtest.Reply(llmtest.ToolCall("t1", "query_metric", string(query))),
				llmtest.Reply(llmtest.ToolCall("t2", "submit_answer", string(submit))),
			)
			mo, err := e.agent(fake, false).Ask(context.Background(), e.recorder(), q, clock(), agentOpts())
			if err != nil {
				t.Fatalf("model: %v", err)
			}
			if mo.SQL != out.SQL {
				t.Fatalf("the model's query compiled to other SQL:\n%s\nvs the builtin's\n%s", mo.SQL, out.SQL)
			}
			e.mu.Lock()
			model := e.events
			e.mu.Unlock()
			gotChecks, gotConf := checksOf(t, model)
			if diff := cmp.Diff(wantChecks, gotChecks); diff != "" {
				t.Errorf("checks (-builtin +model):\n%s", diff)
			}
			if gotConf != wantConf {
				t.Errorf("confidence: builtin %.2f, model %.2f", wantConf, gotConf)
			}
			if diff := cmp.Diff(pipelineSteps(t, builtin), pipelineSteps(t, model)); diff != "" {
				t.Errorf("pipeline events (-builtin +model):\n%s", diff)
			}
			if b, m := readingOf(t, builtin), readingOf(t, model); b == "" || b != m {
				t.Errorf("the same query read otherwise:\n builtin %q\n model   %q", b, m)
			}
		})
	}
}
