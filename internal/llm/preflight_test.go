package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/anthropic"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/llm/openai"
)

// TestPreflight runs the pre-flight round trip against the fake of a
// current Anthropic model (thinking in every reply, signatures checked):
// all three checks pass, for well under a cent; a model that answers
// without calling the tool fails "tools" with the fix, and one that cannot
// write the JSON asked for fails "structured output".
func TestPreflight(t *testing.T) {
	srv := llmtest.NewAnthropicServer(t, "k")
	g := llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", "")})
	run := g.Run(llm.Budget{MaxCalls: 2}, nil)
	checks := llm.Preflight(context.Background(), run, llm.PreflightOptions{})
	if len(checks) != 3 || !checks[0].OK || !checks[1].OK || !checks[2].OK {
		t.Fatalf("checks %+v", checks)
	}
	if run.Cost() >= 10_000 {
		t.Errorf("pre-flight cost %s", llm.USD(run.Cost()))
	}
	t.Logf("pre-flight on claude-sonnet-5-5: %d calls, %+v tokens, %s", run.Calls(), run.Usage(), llm.USD(run.Cost()))

	srv = llmtest.NewAnthropicServer(t, "k")
	srv.Preflight = llmtest.PreflightNoTools
	g = llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", "")})
	checks = llm.Preflight(context.Background(), g.Run(llm.Budget{}, nil), llm.PreflightOptions{})
	if len(checks) != 1 || checks[0].OK || checks[0].Fix == "" {
		t.Errorf("no tool call: %+v", checks)
	}
	srv = llmtest.NewAnthropicServer(t, "k")
	srv.Preflight = llmtest.PreflightNoJSON
	g = llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", "")})
	checks = llm.Preflight(context.Background(), g.Run(llm.Budget{}, nil), llm.PreflightOptions{})
	if len(checks) != 3 || !checks[1].OK || checks[2].OK || checks[2].Name != "structured output" {
		t.Errorf("no JSON: %+v", checks)
	}
	if r := srv.Refused(); len(r) > 0 {
		t.Errorf("refused: %s", r[0])
	}
}

// TestPreflightContextSize: a local server whose window cuts quarry's
// schema context off is found by measuring (a truncating server reports
// fewer input tokens; a strict one refuses the prompt), and a model of
// known window is judged without sending the context at all.
func TestPreflightContextSize(t *testing.T) {
	schema := strings.Repeat("orders(id INTEGER, customer_id INTEGER, amount REAL, created_at TIMESTAMP)\n", 800) // about 15,000 tokens
	for _, tc := range []struct {
		name     string
		window   int
		truncate bool
		ok       bool
		want     string
	}{
		{"fits", 32768, false, true, "read all"},
		{"truncates", 4096, true, false, "cuts off"},
		{"refuses", 4096, false, false, "maximum context length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAIServer(t, "")
			srv.Window, srv.Truncate = tc.window, tc.truncate
			g := llm.New(llm.Config{Provider: openai.New(openai.Options{BaseURL: srv.URL}), Name: "openai", Models: llm.ResolveModels("openai", "qwen3:8b", "")})
			checks := llm.Preflight(context.Background(), g.Run(llm.Budget{}, nil), llm.PreflightOptions{Model: "qwen3:8b", Context: schema, Measure: true})
			last := checks[len(checks)-1]
			if last.Name != "context size" || last.OK != tc.ok || !strings.Contains(last.Detail, tc.want) || (!tc.ok && !strings.Contains(last.Fix, "num_ctx")) {
				t.Errorf("checks %+v", checks)
			}
			if tc.ok && len(checks) != 4 {
				t.Errorf("checks %+v", checks)
			}
			if srv.Preflights() == 0 || len(srv.Requests()) != 0 {
				t.Errorf("pre-flight requests %d, scripted requests %d", srv.Preflights(), len(srv.Requests()))
			}
		})
	}
	// A known window: judged from the size alone, the context never sent.
	srv := llmtest.NewAnthropicServer(t, "k")
	g := llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", "")})
	checks := llm.Preflight(context.Background(), g.Run(llm.Budget{}, nil), llm.PreflightOptions{Model: "claude-sonnet-5-5", Context: schema, Measure: true})
	if len(checks) != 4 || !checks[3].OK || !strings.Contains(checks[3].Detail, "1000000-token window") {
		t.Errorf("known window: %+v", checks)
	}
	if r := srv.Refused(); len(r) > 0 {
		t.Errorf("refused: %s", r[0])
	}
	// A model without tool support is told what to do.
	srv = llmtest.NewOpenAIServer(t, "")
	srv.Preflight = llmtest.PreflightNoTools
	g = llm.New(llm.Config{Provider: openai.New(openai.Options{BaseURL: srv.URL}), Name: "openai", Models: llm.ResolveModels("openai", "llama2", "")})
	checks = llm.Preflight(context.Background(), g.Run(llm.Budget{}, nil), llm.PreflightOptions{Model: "llama2"})
	if len(checks) != 1 || checks[0].OK || !strings.Contains(checks[0].Fix, "tool") {
		t.Errorf("no tools: %+v", checks)
	}
}
