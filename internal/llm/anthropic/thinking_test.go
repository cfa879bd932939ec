package anthropic_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/anthropic"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestThinkingRoundTrip: on each current model the assistant turn of a
// tool loop goes back exactly as received (thinking with its signature, a
// redacted block, streamed or not), and the fake — which follows the
// documented rules — rejects the turn with a 400 when a block is dropped
// or altered, as the API does.
func TestThinkingRoundTrip(t *testing.T) {
	call := llm.ToolUse{ID: "toolu_1", Name: "run_query", Input: json.RawMessage(`{"sql":"SELECT 1"}`)}
	tools := []llm.Tool{{Name: "run_query", InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}}}`)}}
	for _, model := range []string{"claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5", "claude-fable-5-1"} {
		for _, stream := range []bool{false, true} {
			for _, edit := range []string{"none", "drop", "alter", "drop redacted", "edit prefix"} {
				first := llmtest.Answer{Thinking: "I should run a query.", Redacted: true, ToolUses: []llm.ToolUse{call}}
				srv := llmtest.NewAnthropicServer(t, "k", first, llmtest.Answer{Text: "One."})
				p := anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL})
				var onText func(string)
				var streamed strings.Builder
				if stream {
					onText = func(d string) { streamed.WriteString(d) }
				}
				req := llm.Request{System: []llm.SystemBlock{{Text: "You answer.", Cache: true}}, Tools: tools, Messages: []llm.Message{llm.UserText("one?")}}
				resp, err := p.Complete(context.Background(), model, req, onText)
				if err != nil {
					t.Fatal(err)
				}
				if resp.Text() != "" || streamed.Len() != 0 {
					t.Errorf("%s: thinking reached the text: %q %q", model, resp.Text(), streamed.String())
				}
				am := resp.AssistantMessage()
				if len(am.Parts) != 3 || am.Parts[0].Opaque == nil || am.Parts[1].Opaque == nil || am.Parts[1].Opaque.Type != "redacted_thinking" {
					t.Fatalf("%s stream=%v: parts %+v", model, stream, am.Parts)
				}
				switch edit {
				case "drop":
					am.Parts = am.Parts[2:]
				case "drop redacted":
					am.Parts = append(am.Parts[:1:1], am.Parts[2])
				case "alter":
					am.Parts[0].Opaque = &llm.Opaque{Provider: "anthropic", Type: "thinking", Raw: json.RawMessage(strings.Replace(string(am.Parts[0].Opaque.Raw), "run a query", "run two queries", 1))}
				case "edit prefix":
					req.System[0].Text = "You answer briefly."
				}
				req.Messages = append(req.Messages, am, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{ToolResult: &llm.ToolResult{ToolUseID: "toolu_1", Content: "1"}}}})
				resp, err = p.Complete(context.Background(), model, req, onText)
				if edit == "none" {
					if err != nil || resp.Text() != "One." {
						t.Errorf("%s stream=%v: %v", model, stream, err)
					}
					continue
				}
				if err == nil || quarry.KindOf(err) != quarry.KindModel || !strings.Contains(err.Error(), "400") {
					t.Errorf("%s stream=%v %s: the fake accepted it: %v", model, stream, edit, err)
				}
			}
		}
	}
}

// TestRequestShape: effort goes to output_config; off turns thinking off
// where the model allows it and is low effort where it does not; legacy
// models get neither; the gateway refuses a prefill before sending; a
// reply cut at max_tokens is a clear error.
func TestRequestShape(t *testing.T) {
	for _, c := range []struct {
		model  string
		effort llm.Effort
		want   []string
		not    []string
	}{
		{"claude-sonnet-5-5", llm.EffortHigh, []string{`"output_config":{"effort":"high"}`}, []string{`"thinking"`, "temperature", "tool_choice"}},
		{"claude-haiku-5-5", llm.EffortOff, []string{`"thinking":{"type":"disabled"}`}, []string{"output_config"}},
		{"claude-sonnet-5-5", llm.EffortOff, []string{`"thinking":{"type":"between_tools"}`, `"effort":"low"`}, nil},
		{"claude-opus-5-5", llm.EffortOff, []string{`"effort":"low"`}, []string{`"thinking"`}},
		{"claude-haiku-4-5", llm.EffortHigh, nil, []string{"output_config", `"thinking"`}},
	} {
		srv := llmtest.NewAnthropicServer(t, "k", llmtest.Answer{Text: "ok"})
		p := anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL})
		if _, err := p.Complete(context.Background(), c.model, llm.Request{Messages: []llm.Message{llm.UserText("hi")}, Effort: c.effort}, nil); err != nil {
			t.Fatalf("%s %s: %v", c.model, c.effort, err)
		}
		body := string(srv.Requests()[0].Body)
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s %s: no %s in %s", c.model, c.effort, w, body)
			}
		}
		for _, w := range c.not {
			if strings.Contains(body, w) {
				t.Errorf("%s %s: %s in %s", c.model, c.effort, w, body)
			}
		}
	}

	srv := llmtest.NewAnthropicServer(t, "k", llmtest.Answer{Text: "cut", StopReason: "max_tokens", Usage: llm.Usage{Input: 10, Output: 100}})
	g := llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", ""), MaxTokens: 100})
	run := g.Run(llm.Budget{}, nil)
	prefill := llm.Request{Messages: []llm.Message{llm.UserText("hi"), {Role: llm.RoleAssistant, Parts: []llm.Part{{Text: "{"}}}}}
	if _, err := run.Complete(context.Background(), prefill, nil); err == nil || !strings.Contains(err.Error(), "prefill") || len(srv.Requests()) != 0 {
		t.Errorf("prefill: %v, %d requests", err, len(srv.Requests()))
	}
	_, err := run.Complete(context.Background(), llm.Request{Messages: []llm.Message{llm.UserText("hi")}}, nil)
	if quarry.KindOf(err) != quarry.KindModel || !strings.Contains(err.Error(), "output limit (100 tokens, thinking included)") || !strings.Contains(err.Error(), "model.max_tokens") {
		t.Errorf("max_tokens: %v", err)
	}
	if run.Cost() == 0 {
		t.Error("a reply cut at max_tokens was not counted")
	}
	if !strings.Contains(string(srv.Requests()[0].Body), `"max_tokens":100`) || !strings.Contains(string(srv.Requests()[0].Body), `"effort":"medium"`) {
		t.Errorf("body %s", srv.Requests()[0].Body)
	}
}
