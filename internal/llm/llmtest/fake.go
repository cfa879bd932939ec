// Package llmtest helps test code that calls language models: a scripted
// fake llm.Provider that records every request it receives, and local HTTP
// servers that speak the Anthropic Messages API and the OpenAI
// chat-completions API (JSON and SSE streaming, tool use), so that the
// providers' real SDK code runs in tests with no key and no network.
package llmtest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Step is one scripted reply: a response, or an error.
type Step struct {
	Response *llm.Response
	Err      error
}

// Call is one request the fake received.
type Call struct {
	Model   string
	Request llm.Request
	Body    []byte // the request as JSON, for searching
	Wire    []byte // over a provider's wire: the request body it sent
}

// Provider is a scripted llm.Provider. It answers each call with the next
// step of its script, streams a response's text in word-sized deltas when
// asked to, and records every request. It is safe for concurrent use.
type Provider struct {
	mu    sync.Mutex
	steps []Step
	calls []Call

	// Over a provider's wire (NewProviderOver): the fake server and the
	// real adapter that talks to it.
	over   Wire
	server *Server
	next   llm.Provider
}

// NewProvider returns a fake that replies with steps, in order. A call
// after the last step fails with a KindModel error.
func NewProvider(steps ...Step) *Provider {
	return &Provider{steps: steps}
}

// Reply returns a step that answers with r.
func Reply(r *llm.Response) Step { return Step{Response: r} }

// Fail returns a step that fails with err.
func Fail(err error) Step { return Step{Err: err} }

// Text returns a response of one text part that ends the turn.
func Text(text string) *llm.Response {
	return &llm.Response{Parts: []llm.Part{{Text: text}}, StopReason: llm.StopEnd, Usage: llm.Usage{Input: 10, Output: 5}}
}

// ToolCall returns a response that calls one tool with input (a JSON object).
func ToolCall(id, name, input string) *llm.Response {
	return &llm.Response{
		Parts:      []llm.Part{{ToolUse: &llm.ToolUse{ID: id, Name: name, Input: json.RawMessage(input)}}},
		StopReason: llm.StopToolUse,
		Usage:      llm.Usage{Input: 10, Output: 5},
	}
}

// Complete implements llm.Provider.
func (p *Provider) Complete(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.calls = append(p.calls, Call{Model: model, Request: req, Body: body})
	n := len(p.calls)
	var step Step
	ok := n <= len(p.steps)
	if ok {
		step = p.steps[n-1]
	}
	p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, quarry.Wrap(quarry.KindCanceled, err, "the call to the fake model was canceled")
	}
	if !ok {
		return nil, quarry.Errorf(quarry.KindModel, "the scripted model has no reply for call %d (it has %d)", n, len(p.steps))
	}
	if step.Err != nil {
		return nil, step.Err
	}
	if p.next != nil {
		return p.completeOver(ctx, n, model, req, onText)
	}
	resp := *step.Response
	resp.Parts = append([]llm.Part(nil), step.Response.Parts...)
	if onText != nil {
		for _, part := range resp.Parts {
			for _, d := range Deltas(part.Text) {
				onText(d)
			}
		}
	}
	if resp.Model == "" {
		resp.Model = model
	}
	return &resp, nil
}

// Calls returns the requests received so far.
func (p *Provider) Calls() []Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Call(nil), p.calls...)
}

// Remaining returns how many scripted steps are still unused.
func (p *Provider) Remaining() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return max(0, len(p.steps)-len(p.calls))
}

// Find returns the indexes of the calls whose request contains s anywhere
// (system prompt, messages, tool results, tool schemas), to prove that a
// value never reached the model. It searches the JSON body and the plain
// texts, so escaping cannot hide a match.
func (p *Provider) Find(s string) []int {
	return p.FindEach([]string{s})[s]
}

// FindEach is Find for many strings at once: the indexes of the calls
// that contain each string found anywhere, keyed by the string. Each
// request's texts are read once, so thousands of values cost little.
func (p *Provider) FindEach(strs []string) map[string][]int {
	out := map[string][]int{}
	for i, c := range p.Calls() {
		texts := []string{string(c.Body), string(c.Wire), plainText(c.Request)}
		for _, s := range strs {
			for _, t := range texts {
				if strings.Contains(t, s) {
					out[s] = append(out[s], i)
					break
				}
			}
		}
	}
	return out
}

// plainText joins every string of req.
func plainText(req llm.Request) string {
	var b strings.Builder
	for _, s := range req.System {
		b.WriteString(s.Text + "\n")
	}
	for _, t := range req.Tools {
		b.WriteString(t.Name + "\n" + t.Description + "\n" + string(t.InputSchema) + "\n")
	}
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			b.WriteString(p.Text + "\n")
			if p.ToolUse != nil {
				b.WriteString(p.ToolUse.Name + "\n" + string(p.ToolUse.Input) + "\n")
			}
			if p.ToolResult != nil {
				b.WriteString(p.ToolResult.Content + "\n")
			}
		}
	}
	return b.String()
}

// Deltas splits text into word-sized pieces that join back to text, the way
// a streaming provider sends it.
func Deltas(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
