package llm_test

import (
	"context"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/anthropic"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
)

// TestPreflight runs the pre-flight round trip against the fake of a
// current Anthropic model (thinking in every reply, signatures checked):
// all three checks pass, for well under a cent; a model that answers
// without calling the tool fails "tools" with the fix.
func TestPreflight(t *testing.T) {
	srv := llmtest.NewAnthropicServer(t, "k",
		llmtest.Answer{Thinking: "2+3", ToolUses: []llm.ToolUse{{ID: "t1", Name: "add", Input: []byte(`{"a":2,"b":3}`)}}, Usage: llm.Usage{Input: 300, Output: 60}},
		llmtest.Answer{Text: `{"sum": 5}`, Usage: llm.Usage{Input: 380, Output: 20}})
	g := llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", "")})
	run := g.Run(llm.Budget{MaxCalls: 2}, nil)
	checks := llm.Preflight(context.Background(), run)
	if len(checks) != 3 || !checks[0].OK || !checks[1].OK || !checks[2].OK {
		t.Fatalf("checks %+v", checks)
	}
	if run.Cost() >= 10_000 {
		t.Errorf("pre-flight cost %s", llm.USD(run.Cost()))
	}
	t.Logf("pre-flight on claude-sonnet-5-5: %d calls, %+v tokens, %s", run.Calls(), run.Usage(), llm.USD(run.Cost()))

	srv = llmtest.NewAnthropicServer(t, "k", llmtest.Answer{Text: "5"})
	g = llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", "")})
	checks = llm.Preflight(context.Background(), g.Run(llm.Budget{}, nil))
	if len(checks) != 1 || checks[0].OK || checks[0].Fix == "" {
		t.Errorf("no tool call: %+v", checks)
	}
}
