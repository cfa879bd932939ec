// Package llm is quarry's single chokepoint for language models: the
// provider-neutral messages, tools and streaming that the agent speaks, and
// the Gateway that every call goes through. The Gateway routes a request to a
// tier's model, retries transient failures with backoff, bounds each call in
// time, counts tokens and integer micro-US-dollar cost against a per-run
// budget, and reports every attempt as an event.ModelCalledData.
//
// Providers live in subpackages (anthropic, openai) and know only their wire
// format; replay records and serves provider HTTP traffic, and llmtest holds
// a scripted fake provider and fake servers for tests.
//
// Nothing here reads the environment: keys and base URLs come in as
// arguments, and time and randomness through Config.
package llm

import (
	"context"
	"encoding/json"
	"strings"
)

// Role says who wrote a message.
type Role string

// The two roles of a conversation. The system prompt is not a message: see
// Request.System.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role  Role
	Parts []Part
}

// Part is one piece of a message: exactly one of Text, ToolUse, ToolResult
// and Opaque is set.
type Part struct {
	Text       string
	ToolUse    *ToolUse
	ToolResult *ToolResult
	Opaque     *Opaque
}

// Opaque is a block of a provider's own that quarry neither reads nor
// changes: Anthropic's thinking and redacted_thinking blocks with their
// signatures, an OpenAI-compatible server's reasoning. It travels in the
// assistant turn that carried it, in its place, and the provider that made
// it sends it back exactly as received (or leaves it out, where that
// provider's rules say so). Its text is never part of the answer.
type Opaque struct {
	Provider string          // the provider that made it: "anthropic", "openai"
	Type     string          // the provider's block type: "thinking", "redacted_thinking", "reasoning"
	Raw      json.RawMessage // the block exactly as the provider sent it
}

// ToolUse is the model asking for a tool to be run.
type ToolUse struct {
	ID    string          // the provider's id for this call; the result refers to it
	Name  string          // the tool's name
	Input json.RawMessage // the arguments, a JSON object
}

// ToolResult answers a ToolUse.
type ToolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

// Tool describes a tool the model may call.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage // a JSON Schema object
}

// SystemBlock is one block of the system prompt. Cache marks the end of a
// stable prefix (the system prompt, schema context, knowledge): providers
// that support prompt caching put a cache breakpoint after it, so that later
// calls of the run read that prefix from the cache at a fraction of the price.
type SystemBlock struct {
	Text  string
	Cache bool
}

// Tier says which of the configured models serves a request.
type Tier string

// The tiers. The zero Tier is TierStrong.
const (
	// TierStrong plans: it writes SQL in the tool loop.
	TierStrong Tier = "strong"
	// TierCheap classifies, repairs JSON and summarises.
	TierCheap Tier = "cheap"
)

// Request is one call to a model.
//
// Current models reject some request shapes, and quarry has no way to ask
// for them: a forced tool choice, sampling parameters (temperature, top_p,
// top_k), and an assistant prefill (a conversation that ends with an
// assistant turn, which the Gateway refuses). A structured answer comes
// from a tool the model may choose, or plain JSON and DecodeJSON's repair.
type Request struct {
	System   []SystemBlock
	Messages []Message
	Tools    []Tool
	// MaxTokens bounds the reply, thinking included (0 for the gateway's
	// default, DefaultMaxTokens unless configured).
	MaxTokens int
	Tier      Tier // "" for TierStrong
	// Effort is how hard the model thinks ("" for the tier's configured
	// effort; see Config.Effort).
	Effort Effort
}

// DefaultMaxTokens bounds a response when neither the Request nor the
// configuration says. Thinking counts toward it (and is billed as output),
// so it leaves room for thinking plus the answer.
const DefaultMaxTokens = 16000

// Effort is how much a model thinks before it answers: Anthropic's
// output_config.effort, OpenAI's reasoning_effort.
type Effort string

// The efforts. EffortDefault leaves the model's own default; EffortOff turns
// thinking off where the model allows it, and is EffortLow where it does
// not (see ThinkingOff).
const (
	EffortDefault Effort = ""
	EffortOff     Effort = "off"
	EffortLow     Effort = "low"
	EffortMedium  Effort = "medium"
	EffortHigh    Effort = "high"
	EffortXHigh   Effort = "xhigh"
	EffortMax     Effort = "max"
)

// Efforts lists the efforts configuration may name.
var Efforts = []Effort{EffortOff, EffortLow, EffortMedium, EffortHigh, EffortXHigh, EffortMax}

// StopReason says why the model stopped.
type StopReason string

// The stop reasons every provider's reasons are mapped to.
const (
	StopEnd       StopReason = "end_turn"   // the model finished its answer
	StopToolUse   StopReason = "tool_use"   // the model asks for tools to be run
	StopMaxTokens StopReason = "max_tokens" // the answer was cut off at MaxTokens
	StopOther     StopReason = "other"      // refusal, content filter, stop sequence, …
)

// Usage counts a call's tokens. Input excludes tokens read from or written to
// the prompt cache, which are counted apart because they are priced apart. A
// provider that does not report usage (some local servers) reports zeros.
type Usage struct {
	Input      int
	Output     int
	CacheRead  int
	CacheWrite int
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.Output + v.Output, u.CacheRead + v.CacheRead, u.CacheWrite + v.CacheWrite}
}

// Response is a model's answer.
type Response struct {
	Parts      []Part
	StopReason StopReason
	Usage      Usage
	Model      string // the model that answered, as the provider names it
}

// Text returns the response's text parts joined together; opaque blocks
// (thinking, reasoning) are never part of it.
func (r *Response) Text() string {
	var b strings.Builder
	for _, p := range r.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// ToolUses returns the tool calls in the response, in order.
func (r *Response) ToolUses() []ToolUse {
	var out []ToolUse
	for _, p := range r.Parts {
		if p.ToolUse != nil {
			out = append(out, *p.ToolUse)
		}
	}
	return out
}

// Provider is one model provider's API. Complete sends req to model and
// returns the whole response; when onText is not nil the response is
// streamed and onText receives each text delta as it arrives, in order.
//
// A provider makes exactly one attempt: it does no retries of its own. Its
// errors are *quarry.Error values; those worth retrying wrap a *CallError
// that says so (see StatusError and TransportError).
type Provider interface {
	Complete(ctx context.Context, model string, req Request, onText func(string)) (*Response, error)
}

// Completer is what needs a model call and nothing else: *Run satisfies it,
// and so does a test's fake.
type Completer interface {
	Complete(ctx context.Context, req Request, onText func(string)) (*Response, error)
}

// UserText returns a user message of one text part.
func UserText(text string) Message {
	return Message{Role: RoleUser, Parts: []Part{{Text: text}}}
}

// AssistantMessage returns the response as the assistant's turn, to append to
// the conversation before the tool results.
func (r *Response) AssistantMessage() Message {
	return Message{Role: RoleAssistant, Parts: append([]Part(nil), r.Parts...)}
}
