// Package openai is the llm.Provider for OpenAI-compatible chat-completions
// endpoints: OpenAI itself, Ollama, vLLM, the llama.cpp server, LM Studio
// and Gemini's compatible endpoint. The base URL, key and model come from
// configuration.
//
// Local servers often report no usage; their calls then count 0 tokens and
// cost 0, and the Gateway still counts them against the call budget.
//
// Reasoning: a server's reasoning_content, and <think>…</think> at the start
// of the content (streamed or not), never reach the answer's text or the
// text callback; they are kept as an llm.Opaque part of the turn and, as
// DeepSeek's, vLLM's and llama.cpp's rules say, not sent back. The effort
// becomes reasoning_effort for OpenAI's reasoning models. On chat
// completions OpenAI's GPT-6 and GPT-5.4+ models call function tools only
// with reasoning_effort "none", so a request with tools sends "none" to
// them; GPT-6.1 Sol and GPT-6 Astra accept no "none" and cannot call tools
// here (the error says which model to use instead).
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	sdk "github.com/sashabaranov/go-openai"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
)

// DefaultBaseURL is OpenAI's own API.
const DefaultBaseURL = "https://api.openai.com/v1"

// Options configures a Provider.
type Options struct {
	APIKey  string // may be "" for local servers
	BaseURL string // "" for DefaultBaseURL; e.g. http://localhost:11434/v1 for Ollama
	// HTTPClient sends the requests (nil for a plain http.Client).
	HTTPClient *http.Client
	// Now is the clock for Retry-After dates (nil for time.Now).
	Now func() time.Time
}

// Provider calls an OpenAI-compatible chat-completions API.
type Provider struct {
	client   *sdk.Client
	key      string
	now      func() time.Time
	ep       llm.Endpoint
	official bool // api.openai.com: needs max_completion_tokens and a key
}

// New returns a Provider for o.
func New(o Options) *Provider {
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	base := strings.TrimRight(o.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	cfg := sdk.DefaultConfig(o.APIKey)
	cfg.BaseURL = base
	cfg.HTTPClient = doer{hc}
	official := strings.HasPrefix(base, "https://api.openai.com/")
	name := "the OpenAI API"
	if !official {
		name = "the OpenAI-compatible endpoint at " + safeURL(base)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Provider{
		client:   sdk.NewClientWithConfig(cfg),
		key:      o.APIKey,
		now:      now,
		official: official,
		ep:       llm.Endpoint{Name: name, KeyHint: "OPENAI_API_KEY (or model.api_key in quarry.yaml)"},
	}
}

// Complete implements llm.Provider.
func (p *Provider) Complete(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
	if p.official && p.key == "" {
		return nil, quarry.Errorf(quarry.KindConfig, "no OpenAI API key is set; set OPENAI_API_KEY (or model.api_key in quarry.yaml)")
	}
	creq, err := p.buildRequest(model, req)
	if err != nil {
		return nil, err
	}
	info := &callInfo{}
	ctx = context.WithValue(ctx, callInfoKey{}, info)
	if onText == nil {
		resp, err := p.client.CreateChatCompletion(ctx, creq)
		if err != nil {
			return nil, p.fail(ctx, info, model, err)
		}
		if len(resp.Choices) == 0 {
			return nil, p.ep.Malformed(errors.New("the response has no choices"), p.key)
		}
		c := resp.Choices[0]
		reasoning, text := splitThink(c.Message.Content)
		if c.Message.ReasoningContent != "" {
			reasoning = c.Message.ReasoningContent
		}
		return convert(resp.Model, model, reasoning, text, c.Message.ToolCalls, c.FinishReason, &resp.Usage), nil
	}
	creq.Stream = true
	creq.StreamOptions = &sdk.StreamOptions{IncludeUsage: true}
	stream, err := p.client.CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return nil, p.fail(ctx, info, model, err)
	}
	defer stream.Close()
	var (
		text      strings.Builder
		reasoning strings.Builder
		think     = &thinkFilter{}
		calls     = map[int]*sdk.ToolCall{}
		finish    sdk.FinishReason
		usage     *sdk.Usage
		gotModel  string
		chunks    int
	)
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, p.fail(ctx, info, model, err)
		}
		chunks++
		if chunk.Model != "" {
			gotModel = chunk.Model
		}
		if chunk.Usage != nil {
			usage = chunk.Usage
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			reasoning.WriteString(ch.Delta.ReasoningContent)
			if d := ch.Delta.Content; d != "" {
				if d = think.feed(d); d != "" {
					text.WriteString(d)
					onText(d)
				}
			}
			for _, tc := range ch.Delta.ToolCalls {
				i := len(calls)
				if tc.Index != nil {
					i = *tc.Index
				}
				acc, ok := calls[i]
				if !ok {
					acc = &sdk.ToolCall{Type: sdk.ToolTypeFunction}
					calls[i] = acc
				}
				if tc.ID != "" {
					acc.ID = tc.ID
				}
				if tc.Function.Name != "" {
					acc.Function.Name = tc.Function.Name
				}
				acc.Function.Arguments += tc.Function.Arguments
			}
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
	}
	if ctx.Err() != nil {
		return nil, p.ep.TransportError(ctx, ctx.Err(), p.key)
	}
	if chunks == 0 || finish == "" {
		return nil, quarry.Wrap(quarry.KindModel, &llm.CallError{Retryable: true, Err: io.ErrUnexpectedEOF},
			"the answer stream from %s ended before the answer did; try again", p.ep.Name)
	}
	idx := make([]int, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var tcs []sdk.ToolCall
	for _, i := range idx {
		tcs = append(tcs, *calls[i])
	}
	if d := think.flush(); d != "" {
		text.WriteString(d)
		onText(d)
	}
	r := reasoning.String()
	if r == "" {
		r = think.reasoning.String()
	}
	return convert(gotModel, model, r, text.String(), tcs, finish, usage), nil
}

// buildRequest turns a provider-neutral request into a chat-completions
// request. The system blocks become one system message: OpenAI caches
// long prompt prefixes by itself, with no breakpoints to set.
func (p *Provider) buildRequest(model string, req llm.Request) (sdk.ChatCompletionRequest, error) {
	out := sdk.ChatCompletionRequest{Model: model}
	max := req.MaxTokens
	if max <= 0 {
		max = llm.DefaultMaxTokens
	}
	if p.official || reasoningModel(model) {
		out.MaxCompletionTokens = max
		effort, err := reasoningEffort(model, req.Effort, len(req.Tools) > 0)
		if err != nil {
			return out, err
		}
		out.ReasoningEffort = effort
	} else {
		//lint:ignore SA1019 local servers (Ollama, llama.cpp, LM Studio) read max_tokens
		out.MaxTokens = max
	}
	var sys []string
	for _, b := range req.System {
		sys = append(sys, b.Text)
	}
	if len(sys) > 0 {
		out.Messages = append(out.Messages, sdk.ChatCompletionMessage{Role: sdk.ChatMessageRoleSystem, Content: strings.Join(sys, "\n\n")})
	}
	for _, t := range req.Tools {
		params := json.RawMessage(t.InputSchema)
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, sdk.Tool{Type: sdk.ToolTypeFunction, Function: &sdk.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	for _, m := range req.Messages {
		var texts []string
		var calls []sdk.ToolCall
		for _, part := range m.Parts {
			switch {
			case part.ToolUse != nil:
				args := string(part.ToolUse.Input)
				if args == "" {
					args = "{}"
				}
				calls = append(calls, sdk.ToolCall{ID: part.ToolUse.ID, Type: sdk.ToolTypeFunction, Function: sdk.FunctionCall{Name: part.ToolUse.Name, Arguments: args}})
			case part.ToolResult != nil:
				// Each result is a message of its own, right after the
				// assistant's tool calls.
				content := part.ToolResult.Content
				if part.ToolResult.IsError {
					content = "Error: " + content
				}
				out.Messages = append(out.Messages, sdk.ChatCompletionMessage{Role: sdk.ChatMessageRoleTool, Content: content, ToolCallID: part.ToolResult.ToolUseID})
			case part.Text != "":
				texts = append(texts, part.Text)
			}
		}
		if len(texts) == 0 && len(calls) == 0 {
			continue
		}
		role := sdk.ChatMessageRoleUser
		if m.Role == llm.RoleAssistant {
			role = sdk.ChatMessageRoleAssistant
		}
		out.Messages = append(out.Messages, sdk.ChatCompletionMessage{Role: role, Content: strings.Join(texts, "\n\n"), ToolCalls: calls})
	}
	return out, nil
}

// reasoningModel reports whether model is one of OpenAI's reasoning models,
// which refuse max_tokens wherever they are served.
func reasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// convert builds the provider-neutral response. reasoning becomes an
// opaque part, never text.
func convert(gotModel, model, reasoning, text string, calls []sdk.ToolCall, finish sdk.FinishReason, u *sdk.Usage) *llm.Response {
	out := &llm.Response{Model: gotModel}
	if out.Model == "" {
		out.Model = model
	}
	if reasoning != "" {
		raw, _ := json.Marshal(map[string]string{"reasoning_content": reasoning})
		out.Parts = append(out.Parts, llm.Part{Opaque: &llm.Opaque{Provider: llm.ProviderOpenAI, Type: "reasoning", Raw: raw}})
	}
	if text != "" {
		out.Parts = append(out.Parts, llm.Part{Text: text})
	}
	for _, c := range calls {
		args := json.RawMessage(c.Function.Arguments)
		if strings.TrimSpace(c.Function.Arguments) == "" {
			args = json.RawMessage(`{}`)
		}
		out.Parts = append(out.Parts, llm.Part{ToolUse: &llm.ToolUse{ID: c.ID, Name: c.Function.Name, Input: args}})
	}
	switch {
	case len(calls) > 0:
		// Some local servers say "stop" even when they call tools.
		out.StopReason = llm.StopToolUse
	case finish == sdk.FinishReasonStop:
		out.StopReason = llm.StopEnd
	case finish == sdk.FinishReasonLength:
		out.StopReason = llm.StopMaxTokens
	default:
		out.StopReason = llm.StopOther
	}
	if u != nil {
		cached := 0
		if u.PromptTokensDetails != nil {
			cached = u.PromptTokensDetails.CachedTokens
		}
		out.Usage = llm.Usage{Input: max(0, u.PromptTokens-cached), Output: u.CompletionTokens, CacheRead: cached}
	}
	return out
}

// fail maps an SDK error to a quarry error.
func (p *Provider) fail(ctx context.Context, info *callInfo, model string, err error) error {
	ra := llm.RetryAfter(info.header, p.now())
	var ae *sdk.APIError
	var re *sdk.RequestError
	switch {
	case errors.As(err, &ae):
		status := ae.HTTPStatusCode
		if status == 0 { // an error sent inside a stream
			status = http.StatusInternalServerError
		}
		return p.ep.StatusError(status, ra, model, ae.Message, err, p.key)
	case errors.As(err, &re):
		return p.ep.StatusError(re.HTTPStatusCode, ra, model, string(re.Body), err, p.key)
	case ctx.Err() != nil || isTransport(err):
		return p.ep.TransportError(ctx, err, p.key)
	}
	return p.ep.Malformed(err, p.key)
}

func isTransport(err error) bool {
	var ue *url.Error
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ue) || errors.As(err, &ne) || errors.As(err, &oe) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// callInfo carries what the SDK's errors leave out (the Retry-After header)
// from the HTTP exchange back to Complete.
type callInfo struct {
	header http.Header
}

type callInfoKey struct{}

// doer is the SDK's HTTP client: it notes each response's headers in the
// call's callInfo.
type doer struct{ c *http.Client }

func (d doer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.c.Do(req)
	if info, ok := req.Context().Value(callInfoKey{}).(*callInfo); ok && resp != nil {
		info.header = resp.Header.Clone()
	}
	return resp, err
}

// safeURL returns u without user information or query, for messages.
func safeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the configured base URL"
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	return u.String()
}
