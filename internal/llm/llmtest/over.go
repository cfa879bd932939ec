package llmtest

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/anthropic"
	"github.com/quarrydata/quarry/internal/llm/openai"
)

// A Wire is the way a scripted Provider's replies reach the code under
// test: in process, or through quarry's real provider adapter and a fake
// server that applies one model family's documented request rules (see
// rules.go). A test that runs over every wire proves that the code above
// the adapter follows today's rules: it sends thinking blocks back as it
// received them, forces no tool, prefills nothing, and so on.
type Wire struct {
	Name     string // the subtest name
	Provider string // "" (in process), llm.ProviderAnthropic or llm.ProviderOpenAI
	Models   llm.Models
	// Thinking is the reasoning text every reply carries (Anthropic's
	// current models send a signed thinking block in every reply anyway).
	Thinking string
}

// Wires returns one wire per behaviour family of the fakes: in process;
// Anthropic's current models (Opus and Haiku 5.5, Sonnet 5.5) and a legacy
// one; OpenAI's own reasoning models, and OpenAI-compatible servers that
// send reasoning_content, <think> blocks, or no reasoning at all.
func Wires() []Wire {
	const thought = "The user wants a number; I should look at the schema first."
	return []Wire{
		{Name: "in-process", Models: llm.Models{Strong: "fake-strong", Cheap: "fake-cheap"}},
		{Name: "anthropic-opus-5-5", Provider: llm.ProviderAnthropic, Models: llm.Models{Strong: "claude-opus-5-5", Cheap: "claude-haiku-5-5"}, Thinking: thought},
		{Name: "anthropic-sonnet-5-5", Provider: llm.ProviderAnthropic, Models: llm.Models{Strong: "claude-sonnet-5-5", Cheap: "claude-sonnet-5-5"}},
		{Name: "anthropic-legacy", Provider: llm.ProviderAnthropic, Models: llm.Models{Strong: "claude-sonnet-4-5", Cheap: "claude-haiku-4-5"}},
		{Name: "openai-gpt-6", Provider: llm.ProviderOpenAI, Models: llm.Models{Strong: "gpt-6-sol", Cheap: "gpt-6-luna"}},
		{Name: "openai-reasoning-content", Provider: llm.ProviderOpenAI, Models: llm.Models{Strong: "deepseek-reasoner", Cheap: "deepseek-reasoner"}, Thinking: thought},
		{Name: "openai-think-tags", Provider: llm.ProviderOpenAI, Models: llm.Models{Strong: "qwen3:32b", Cheap: "qwen3:32b"}, Thinking: thought},
		{Name: "openai-plain", Provider: llm.ProviderOpenAI, Models: llm.Models{Strong: "llama3.3:70b", Cheap: "llama3.3:70b"}},
	}
}

// ProviderName is the name a gateway over w records in events.
func (w Wire) ProviderName() string {
	if w.Provider == "" {
		return "fake"
	}
	return w.Provider
}

// NewProviderOver returns a fake that replies with steps, in order, over w.
// Over a provider's wire, each reply that is not an error is served by a
// fake server of that provider (which adds the family's thinking) and read
// by quarry's real adapter; a request the family's rules refuse fails the
// call, and fails the test at its end. Calls and Find see the requests as
// quarry built them and as they went over the wire.
func NewProviderOver(t testing.TB, w Wire, steps ...Step) *Provider {
	p := NewProvider(steps...)
	p.over = w
	if w.Provider == "" {
		return p
	}
	var answers []Answer
	for _, s := range steps {
		if s.Err == nil {
			answers = append(answers, answerOf(s.Response, w.Thinking))
		}
	}
	const key = "sk-fake-wire-key"
	hc := &http.Client{}
	switch w.Provider {
	case llm.ProviderAnthropic:
		p.server = NewAnthropicServer(t, key, answers...)
		p.next = anthropic.New(anthropic.Options{APIKey: key, BaseURL: p.server.URL, HTTPClient: hc})
	case llm.ProviderOpenAI:
		p.server = NewOpenAIServer(t, key, answers...)
		p.next = openai.New(openai.Options{APIKey: key, BaseURL: p.server.URL, HTTPClient: hc})
	default:
		t.Fatalf("llmtest: unknown wire provider %q", w.Provider)
	}
	t.Cleanup(func() {
		if refused := p.server.Refused(); len(refused) > 0 {
			t.Errorf("the fake %s server (%s) refused %d of quarry's requests by the model's documented rules; the first: %s", w.Provider, w.Name, len(refused), refused[0])
		}
	})
	return p
}

// Over returns the wire p's replies travel over: the models and provider
// name a gateway over p should be configured with.
func (p *Provider) Over() Wire {
	if p.over.Name == "" {
		return Wires()[0]
	}
	return p.over
}

// answerOf is the server's answer that carries r.
func answerOf(r *llm.Response, thinking string) Answer {
	a := Answer{Usage: r.Usage, Thinking: thinking}
	var text strings.Builder
	for _, part := range r.Parts {
		text.WriteString(part.Text)
		if part.ToolUse != nil {
			a.ToolUses = append(a.ToolUses, *part.ToolUse)
		}
	}
	a.Text = text.String()
	if r.StopReason == llm.StopMaxTokens {
		a.StopReason = "max_tokens"
	}
	return a
}

// completeOver sends req through the adapter and keeps what went over the
// wire with call n (1-based).
func (p *Provider) completeOver(ctx context.Context, n int, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
	before := len(p.server.Requests())
	resp, err := p.next.Complete(ctx, model, req, onText)
	var sent []byte
	for _, r := range p.server.Requests()[before:] {
		sent = append(sent, r.Body...)
	}
	p.mu.Lock()
	p.calls[n-1].Wire = sent
	p.mu.Unlock()
	return resp, err
}
