package llm

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Check is one finding of Preflight.
type Check struct {
	Name   string // "tools", "thinking round trip", "structured output"
	OK     bool
	Detail string
	Fix    string // what to do when not OK
}

// Preflight sends one tiny scripted tool round trip through c — a tool
// call, its result sent back after the assistant turn exactly as received
// (thinking included), and a JSON answer — and says whether the model and
// endpoint can do what quarry needs. It makes at most two small calls (a
// few hundred tokens each at low effort), and stops at the first failure.
func Preflight(ctx context.Context, c Completer) []Check {
	tool := Tool{Name: "add", Description: "Add two integers and return the sum.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`)}
	req := Request{
		System:    []SystemBlock{{Text: "You are checking that tool use works. Always use the add tool for arithmetic."}},
		Tools:     []Tool{tool},
		Messages:  []Message{UserText("What is 2 + 3? Call the add tool.")},
		MaxTokens: 2048,
		Effort:    EffortLow,
	}
	resp, err := c.Complete(ctx, req, nil)
	if err != nil {
		return []Check{{Name: "tools", Detail: quarry.Message(err), Fix: fixFor(err)}}
	}
	uses := resp.ToolUses()
	if len(uses) == 0 || uses[0].Name != "add" {
		return []Check{{Name: "tools", Detail: "the model answered without calling the tool it was given",
			Fix: "use a model with tool use (function calling); on Ollama, vLLM or llama.cpp pick one whose template supports tools (e.g. qwen3, llama3.1) and enable tool calling on the server"}}
	}
	out := []Check{{Name: "tools", OK: true, Detail: "the model called a tool"}}
	req.Messages = append(req.Messages, resp.AssistantMessage(), Message{Role: RoleUser, Parts: []Part{{ToolResult: &ToolResult{ToolUseID: uses[0].ID, Content: `5`}},
		{Text: `Now reply with only this JSON and nothing else: {"sum": <the sum>}`}}})
	resp, err = c.Complete(ctx, req, nil)
	if err != nil {
		return append(out, Check{Name: "thinking round trip", Detail: quarry.Message(err),
			Fix: "the endpoint refused the assistant turn sent back as it was received; if a proxy sits in between, make it pass thinking blocks and their signatures through unchanged"})
	}
	thinking := 0
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			if p.Opaque != nil {
				thinking++
			}
		}
	}
	out = append(out, Check{Name: "thinking round trip", OK: true, Detail: fmt.Sprintf("the tool result went back with the assistant turn as received (%d thinking or reasoning blocks)", thinking)})
	var v struct{ Sum int }
	raw, err := ExtractJSON(resp.Text())
	if err == nil {
		err = json.Unmarshal(raw, &v)
	}
	if err != nil || v.Sum != 5 {
		return append(out, Check{Name: "structured output", Detail: fmt.Sprintf("the model did not answer with the JSON asked for (%q)", oneLine(resp.Text(), 80)),
			Fix: "use a stronger model; quarry repairs one bad JSON answer, but a model that cannot write JSON will fail often"})
	}
	return append(out, Check{Name: "structured output", OK: true, Detail: "the model answered with valid JSON"})
}

func fixFor(err error) string {
	switch quarry.KindOf(err) {
	case quarry.KindConfig:
		return "set the key or model as the message says"
	case quarry.KindTimeout:
		return "check that the endpoint is up and the model is loaded"
	}
	return "check model.model and model.base_url in quarry.yaml and the key; the message says what the endpoint answered"
}
