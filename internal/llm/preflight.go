package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Check is one finding of Preflight.
type Check struct {
	Name   string // "tools", "thinking round trip", "structured output"
	OK     bool
	Detail string
	Fix    string // what to do when not OK
	// Err is the failed call behind a check that is not OK because the
	// endpoint could not be reached or refused the request (a key, a
	// limit, an outage), not because of what the model did.
	Err error
}

// PreflightSystem opens the system prompt of every pre-flight request, so
// that a fake provider can tell the check from real work.
const PreflightSystem = "You are checking that tool use works. Always use the add tool for arithmetic."

// PreflightOptions says what Preflight checks about the context size.
type PreflightOptions struct {
	// Model is the model checked, for its known context window.
	Model string
	// Context is the schema context quarry sends with every question of
	// this project ("" to skip the context check).
	Context string
	// Measure sends Context with the first call and compares the input
	// tokens the endpoint reports with its size, to find a context window
	// that truncates it. For local and self-hosted servers, whose windows
	// quarry cannot know and whose tokens cost nothing; never for a paid
	// API, where the check must stay under a cent.
	Measure bool
}

// Preflight sends one tiny scripted tool round trip through c — a tool
// call, its result sent back after the assistant turn exactly as received
// (thinking included), and a JSON answer — and says whether the model and
// endpoint can do what quarry needs, and whether quarry's schema context
// fits the model's window. It makes at most two small calls (a few
// hundred tokens each at low effort, plus the context when measured), and
// stops at the first failure.
func Preflight(ctx context.Context, c Completer, o PreflightOptions) []Check {
	tool := Tool{Name: "add", Description: "Add two integers and return the sum.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`)}
	req := Request{
		System:    []SystemBlock{{Text: PreflightSystem}},
		Tools:     []Tool{tool},
		Messages:  []Message{UserText("What is 2 + 3? Call the add tool.")},
		MaxTokens: 2048,
		Effort:    EffortLow,
	}
	resp, err := c.Complete(ctx, req, nil)
	if err != nil {
		return []Check{{Name: "tools", Detail: quarry.Message(err), Fix: fixFor(err), Err: err}}
	}
	small := resp.Usage
	smallChars := requestChars(req)
	uses := resp.ToolUses()
	if len(uses) == 0 || uses[0].Name != "add" {
		return []Check{{Name: "tools", Detail: "the model answered without calling the tool it was given",
			Fix: "use a model with tool use (function calling); on Ollama, vLLM or llama.cpp pick a model whose chat template supports tools and enable tool calling on the server (vLLM: --enable-auto-tool-choice with a --tool-call-parser)"}}
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
	out = append(out, Check{Name: "structured output", OK: true, Detail: "the model answered with valid JSON"})
	if o.Context != "" {
		out = append(out, contextCheck(ctx, c, o, req, small, smallChars))
	}
	return out
}

// ContextFix says how to give a local server a larger context window.
const ContextFix = "give the server a larger context window (Ollama: OLLAMA_CONTEXT_LENGTH=32768 or the model's num_ctx; vLLM: --max-model-len; llama.cpp: -c), or pick a model with a larger one"

// estimateTokens is a guess of the tokens text takes: about four
// characters a token for English and SQL names.
func estimateTokens(chars int) int { return chars/4 + 1 }

// Headroom is what a question adds to quarry's system prompt and tools
// over its turns (the question, results, repairs), in tokens; the context
// check wants the window to hold both.
const Headroom = 4096

// requestChars is the size of what a request sends, in characters.
func requestChars(req Request) int {
	n := 0
	for _, s := range req.System {
		n += len(s.Text)
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			n += len(p.Text)
		}
	}
	return n
}

// contextCheck judges quarry's prompt (o.Context: the system prompt and
// tools of a question) plus Headroom against the model's window: a known
// window from models.go; otherwise, on an endpoint that may be measured,
// by one more call that sends it, padded by Headroom. The input tokens
// the endpoint reports for that call are compared with the small first
// call's count plus an estimate of what was added: a server that silently
// truncates (Ollama past num_ctx) reports far fewer, and one that refuses
// the prompt (vLLM, llama.cpp) says so.
func contextCheck(ctx context.Context, c Completer, o PreflightOptions, small Request, smallUsage Usage, smallChars int) Check {
	need := estimateTokens(len(o.Context)) + Headroom
	if w := ContextWindow(o.Model); w > 0 {
		if need > w {
			return Check{Name: "context size", Detail: fmt.Sprintf("quarry's prompt and a question's turns need about %d tokens, more than %s's %d-token window", need, o.Model, w),
				Fix: "describe fewer tables in the knowledge folder, or pick a model with a larger window"}
		}
		return Check{Name: "context size", OK: true, Detail: fmt.Sprintf("quarry's prompt and a question's turns (about %d tokens) fit %s's %d-token window", need, o.Model, w)}
	}
	if !o.Measure {
		return Check{Name: "context size", OK: true, Detail: fmt.Sprintf("quarry's prompt and a question's turns need about %d tokens; the model's window is not known, and a paid API is not sent them only to measure", need)}
	}
	read0 := smallUsage.Input + smallUsage.CacheRead + smallUsage.CacheWrite
	if read0 == 0 {
		return Check{Name: "context size", OK: true, Detail: fmt.Sprintf("quarry's prompt and a question's turns need about %d tokens; the endpoint reports no token counts, so whether they fit could not be measured", need)}
	}
	big := Request{System: []SystemBlock{small.System[0], {Text: "The text below is only here to measure the context window; ignore it.\n\n" + o.Context + "\n" + strings.Repeat("padding to measure the context window\n", Headroom*4/38)}},
		Tools: small.Tools, Messages: small.Messages[:1], MaxTokens: 256, Effort: EffortLow}
	resp, err := c.Complete(ctx, big, nil)
	if err != nil {
		if ContextOverflow(err) {
			return Check{Name: "context size", Detail: quarry.Message(err), Fix: ContextFix}
		}
		return Check{Name: "context size", Detail: "the call that measures the context window failed: " + quarry.Message(err), Fix: fixFor(err), Err: err}
	}
	read := resp.Usage.Input + resp.Usage.CacheRead + resp.Usage.CacheWrite
	expected := read0 + estimateTokens(requestChars(big)-smallChars)
	if read < expected*3/4 {
		return Check{Name: "context size", Detail: fmt.Sprintf("the endpoint read %d input tokens of the about %d quarry sent: its context window cuts off quarry's prompt and a question's turns", read, expected), Fix: ContextFix}
	}
	return Check{Name: "context size", OK: true, Detail: fmt.Sprintf("the endpoint read all of quarry's prompt and room for a question's turns (%d input tokens)", read)}
}

// contextOverflow reports whether err is an endpoint's refusal of a prompt
// longer than its context window (vLLM, llama.cpp, OpenAI).
func ContextOverflow(err error) bool {
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "context length") || strings.Contains(m, "context window") || strings.Contains(m, "context_length_exceeded") ||
		strings.Contains(m, "exceeds the available context") || strings.Contains(m, "too many tokens") || strings.Contains(m, "prompt is too long")
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
