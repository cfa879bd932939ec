package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/eval"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/retrieval"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// TestLargeCatalogStaysWithinTheSchemaBudget runs the loop over a
// synthetic 10,000-table catalog with a model that asks for everything
// it is shown: every request's schema (the prompt's tables and every
// search_schema and describe_table result so far) stays within the run's
// schema budget, the prompt shows the question's tables first, and the
// schema.shown events account for what was sent.
func TestLargeCatalogStaysWithinTheSchemaBudget(t *testing.T) {
	cat, _ := eval.SyntheticCatalog(10000, 0, 1)
	cat.Dialect = quarry.DialectSQLite
	const budget = 3000
	steps := []llmtest.Step{
		llmtest.Reply(llmtest.ToolCall("s1", "search_schema", `{"query":"emea sales orders total amount"}`)),
		llmtest.Reply(llmtest.ToolCall("d1", "describe_table", `{"table":"emea_sales.orders"}`)),
		llmtest.Reply(llmtest.ToolCall("s2", "search_schema", `{"query":"emea sales customers country segment"}`)),
		llmtest.Reply(llmtest.ToolCall("d2", "describe_table", `{"table":"emea_sales.customers"}`)),
		llmtest.Reply(llmtest.ToolCall("s3", "search_schema", `{"query":"order items quantity unit price discount"}`)),
		llmtest.Reply(llmtest.ToolCall("s4", "search_schema", `{"query":"archived orders 2019 staging backup history"}`)),
		llmtest.Reply(llmtest.ToolCall("s5", "search_schema", `{"query":"products category brand"}`)),
		llmtest.Reply(llmtest.ToolCall("d3", "describe_table", `{"table":"emea_sales.order_items"}`)),
		llmtest.Reply(llmtest.ToolCall("s6", "search_schema", `{"query":"returns refund amount reason"}`)),
		llmtest.Reply(llmtest.ToolCall("p1", "propose_query", `{"sql":"SELECT c.country, sum(o.total_amount) AS amount FROM emea_sales.orders o JOIN emea_sales.customers c ON c.id = o.customer_id GROUP BY c.country"}`)),
	}
	fake := llmtest.NewProvider(steps...)
	w := fake.Over()
	a := &agent.Agent{
		Gateway: llm.New(llm.Config{Provider: fake, Name: w.ProviderName(), Models: w.Models, MaxAttempts: 1}),
		Dialect: quarry.DialectSQLite, Catalog: cat,
		// The lexical guard: there is no database behind the catalog.
		Guard: analyst.GuardFunc(func(_ context.Context, sql string) sqlguard.Verdict {
			return sqlguard.Check(sql, sqlguard.Options{Dialect: quarry.DialectSQLite})
		}),
		Limits: agent.Limits{SchemaBudget: budget, MaxSteps: 20}, Connection: "test", Clock: clock,
	}
	var mu sync.Mutex
	var evs []event.Event
	rec := event.NewRecorder("r_budget", clock, event.SinkFunc(func(_ context.Context, e ...event.Event) error {
		mu.Lock()
		defer mu.Unlock()
		evs = append(evs, e...)
		return nil
	}))
	out, err := a.Ask(context.Background(), rec, "total order amount by customer country in EMEA sales", clock(), agent.AskOptions{})
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if out.Status != event.StatusAwaitingResults || !strings.Contains(out.SQL, "emea_sales.orders") {
		t.Fatalf("status %q, SQL %q", out.Status, out.SQL)
	}
	calls := fake.Calls()
	if len(calls) != len(steps) {
		t.Fatalf("%d model calls, want %d", len(calls), len(steps))
	}
	refused := 0
	var last int
	for i, c := range calls {
		n := schemaTokens(t, c.Request)
		if n > budget {
			t.Errorf("request %d carries %d tokens of schema, over the budget of %d", i+1, n, budget)
		}
		if i == 0 {
			prompt := c.Request.System[1].Text
			if !strings.Contains(prompt, "- emea_sales.orders:") || !strings.Contains(prompt, "- emea_sales.customers:") {
				t.Errorf("the prompt does not show the question's tables:\n%s", short(prompt))
			}
			if strings.Count(prompt, "\n- ") > 200 {
				t.Errorf("the prompt lists %d tables", strings.Count(prompt, "\n- "))
			}
		}
		last = n
	}
	for _, m := range calls[len(calls)-1].Request.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil && p.ToolResult.IsError && strings.Contains(p.ToolResult.Content, "schema budget") {
				refused++
			}
		}
	}
	if refused == 0 {
		t.Error("no search or description was refused: the script does not reach the budget")
	}
	// schema.shown accounts for every part sent, and says why each table was shown.
	total, whys := 0, map[string]bool{}
	for _, e := range evs {
		if e.Type != event.SchemaShown {
			continue
		}
		var d event.SchemaShownData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatal(err)
		}
		total += d.Tokens
		if d.Total != total || d.Budget != budget || d.Total > budget {
			t.Errorf("schema.shown at step %d: total %d (sum %d), budget %d", d.Step, d.Total, total, d.Budget)
		}
		for _, tb := range d.Tables {
			whys[tb.Why] = true
			if tb.Why == "words" && len(tb.Words) == 0 {
				t.Errorf("%s shown for words, but none are named", tb.Table)
			}
		}
	}
	if total != last {
		t.Errorf("schema.shown sums to %d tokens, the last request carried %d", total, last)
	}
	for _, w := range []string{"words", "described"} {
		if !whys[w] {
			t.Errorf("no table shown because %q (saw %v)", w, whys)
		}
	}
	if _, err := event.Fold(evs); err != nil {
		t.Errorf("fold: %v", err)
	}
}

// schemaTokens is the schema a request carries: the schema block of the
// system prompt and every search_schema and describe_table result.
func schemaTokens(t *testing.T, req llm.Request) int {
	t.Helper()
	n := retrieval.Tokens(req.System[1].Text)
	tools := map[string]string{}
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			if p.ToolUse != nil {
				tools[p.ToolUse.ID] = p.ToolUse.Name
			}
			if p.ToolResult != nil && !p.ToolResult.IsError {
				switch tools[p.ToolResult.ToolUseID] {
				case "search_schema", "describe_table":
					n += retrieval.Tokens(p.ToolResult.Content)
				}
			}
		}
	}
	return n
}

func short(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
