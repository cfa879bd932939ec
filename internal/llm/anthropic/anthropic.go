// Package anthropic is the llm.Provider for Anthropic's Messages API, on the
// official SDK. The stable prefix of a request (the system blocks marked
// Cache, and the tools) carries cache_control breakpoints, so that the
// system prompt, schema context and knowledge are read from the prompt
// cache on every call of a run after the first.
//
// Thinking: every assistant turn comes back as received. Thinking and
// redacted_thinking blocks (with their signatures, assembled from
// thinking_delta and signature_delta when streamed) become llm.Opaque parts
// in their place, and are sent back byte for byte in the next request of the
// tool loop, as the API requires. The request's effort becomes
// output_config.effort; llm.EffortOff turns thinking off where the model
// allows it (llm.ThinkingOf). quarry never sends tool_choice, sampling
// parameters or a prefill, which current models reject.
//
// The SDK's own retries are off: the llm.Gateway retries, in one place. The
// SDK does not read the environment either; the key and base URL are
// arguments.
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Options configures a Provider.
type Options struct {
	APIKey  string // required unless BaseURL is a proxy that adds it
	BaseURL string // "" for https://api.anthropic.com
	// HTTPClient sends the requests (nil for a plain http.Client); tests
	// and the replay package put their transports here.
	HTTPClient *http.Client
	// Now is the clock for Retry-After dates (nil for time.Now).
	Now func() time.Time
}

// Provider calls Anthropic's Messages API.
type Provider struct {
	client sdk.Client
	key    string
	now    func() time.Time
	ep     llm.Endpoint
	noKey  bool
}

// New returns a Provider for o.
func New(o Options) *Provider {
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	if o.APIKey != "" {
		// The key goes in x-api-key, the header the API reference names
		// for API keys (this SDK's WithAPIKey sends Authorization: Bearer,
		// which the reference reserves for OAuth tokens).
		opts = append(opts, option.WithHeader("X-Api-Key", o.APIKey))
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	name := "the Anthropic API"
	if o.BaseURL != "" {
		name = "the Anthropic API at " + safeURL(o.BaseURL)
	}
	return &Provider{
		client: sdk.NewClient(opts...),
		key:    o.APIKey,
		now:    now,
		ep:     llm.Endpoint{Name: name, KeyHint: "ANTHROPIC_API_KEY (or model.api_key in quarry.yaml)"},
		noKey:  o.APIKey == "" && o.BaseURL == "",
	}
}

// Complete implements llm.Provider.
func (p *Provider) Complete(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
	if p.noKey {
		return nil, quarry.Errorf(quarry.KindConfig, "no Anthropic API key is set; set ANTHROPIC_API_KEY (or model.api_key in quarry.yaml)")
	}
	params, err := buildParams(model, req)
	if err != nil {
		return nil, err
	}
	if onText == nil {
		msg, err := p.client.Messages.New(ctx, params)
		if err != nil {
			return nil, p.fail(ctx, model, err)
		}
		return convert(msg, model)
	}
	stream := p.client.Messages.NewStreaming(ctx, params)
	defer stream.Close()
	var acc sdk.Message
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		if err := acc.Accumulate(ev); err != nil {
			return nil, p.ep.Malformed(err, p.key)
		}
		switch ev.Type {
		case "content_block_delta":
			if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
				onText(ev.Delta.Text)
			}
		case "message_stop":
			stopped = true
		}
	}
	if err := stream.Err(); err != nil {
		return nil, p.fail(ctx, model, err)
	}
	if ctx.Err() != nil {
		return nil, p.ep.TransportError(ctx, ctx.Err(), p.key)
	}
	if !stopped {
		return nil, quarry.Wrap(quarry.KindModel, &llm.CallError{Retryable: true, Err: io.ErrUnexpectedEOF},
			"the answer stream from %s ended before the answer did; try again", p.ep.Name)
	}
	return convert(&acc, model)
}

// fail maps an SDK error to a quarry error.
func (p *Provider) fail(ctx context.Context, model string, err error) error {
	var ae *sdk.Error
	if errors.As(err, &ae) {
		status := ae.StatusCode
		// An error event inside a 200 stream names its kind only by type.
		switch ae.Type() {
		case "overloaded_error":
			status = 529
		case "rate_limit_error":
			status = http.StatusTooManyRequests
		case "api_error":
			if status < 500 {
				status = http.StatusInternalServerError
			}
		}
		var ra time.Duration
		if ae.Response != nil {
			ra = llm.RetryAfter(ae.Response.Header, p.now())
		}
		return p.ep.StatusError(status, ra, model, ae.Message, err, p.key)
	}
	if ctx.Err() != nil || isTransport(err) {
		return p.ep.TransportError(ctx, err, p.key)
	}
	return p.ep.Malformed(err, p.key)
}

// isTransport reports whether err is a failure to exchange bytes rather
// than a response that could not be understood.
func isTransport(err error) bool {
	var ue *url.Error
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ue) || errors.As(err, &ne) || errors.As(err, &oe) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// maxBreakpoints is how many cache_control breakpoints a request may carry.
const maxBreakpoints = 4

// buildParams turns a provider-neutral request into the SDK's.
func buildParams(model string, req llm.Request) (sdk.MessageNewParams, error) {
	params := sdk.MessageNewParams{Model: sdk.Model(model), MaxTokens: int64(req.MaxTokens)}
	if params.MaxTokens <= 0 {
		params.MaxTokens = llm.DefaultMaxTokens
	}
	setThinking(&params, model, req.Effort)
	cached := false
	for _, b := range req.System {
		cached = cached || b.Cache
	}
	// One breakpoint goes on the last tool; the system blocks get the
	// rest, the last ones kept when there are too many.
	budget := maxBreakpoints
	if cached && len(req.Tools) > 0 {
		budget--
	}
	marks := 0
	for i := len(req.System) - 1; i >= 0; i-- {
		if req.System[i].Cache {
			marks++
		}
	}
	skip := max(0, marks-budget)
	for _, b := range req.System {
		tb := sdk.TextBlockParam{Text: b.Text}
		if b.Cache {
			if skip > 0 {
				skip--
			} else {
				tb.CacheControl = sdk.NewCacheControlEphemeralParam()
			}
		}
		params.System = append(params.System, tb)
	}
	for i, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return params, err
		}
		if cached && i == len(req.Tools)-1 {
			tool.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		params.Tools = append(params.Tools, sdk.ToolUnionParam{OfTool: &tool})
	}
	for _, m := range req.Messages {
		var blocks []sdk.ContentBlockParamUnion
		for _, part := range m.Parts {
			switch {
			case part.ToolUse != nil:
				in := part.ToolUse.Input
				if len(in) == 0 {
					in = json.RawMessage(`{}`)
				}
				blocks = append(blocks, sdk.NewToolUseBlock(part.ToolUse.ID, in, part.ToolUse.Name))
			case part.ToolResult != nil:
				r := part.ToolResult
				blocks = append(blocks, sdk.NewToolResultBlock(r.ToolUseID, r.Content, r.IsError))
			case part.Opaque != nil:
				// Anthropic's own blocks go back exactly as received;
				// another provider's are not this API's to read.
				if part.Opaque.Provider == llm.ProviderAnthropic && len(part.Opaque.Raw) > 0 {
					blocks = append(blocks, param.Override[sdk.ContentBlockParamUnion](part.Opaque.Raw))
				}
			case part.Text != "":
				blocks = append(blocks, sdk.NewTextBlock(part.Text))
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if m.Role == llm.RoleAssistant {
			params.Messages = append(params.Messages, sdk.NewAssistantMessage(blocks...))
		} else {
			params.Messages = append(params.Messages, sdk.NewUserMessage(blocks...))
		}
	}
	return params, nil
}

// toolParam turns a tool's JSON Schema into the SDK's input schema.
func toolParam(t llm.Tool) (sdk.ToolParam, error) {
	var schema map[string]any
	if len(t.InputSchema) > 0 {
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return sdk.ToolParam{}, quarry.Wrap(quarry.KindInternal, err, "the input schema of tool %s is not a JSON object", t.Name)
		}
	}
	in := sdk.ToolInputSchemaParam{Properties: schema["properties"]}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				in.Required = append(in.Required, s)
			}
		}
	}
	for k, v := range schema {
		if k == "properties" || k == "required" || k == "type" {
			continue
		}
		if in.ExtraFields == nil {
			in.ExtraFields = map[string]any{}
		}
		in.ExtraFields[k] = v
	}
	tool := sdk.ToolParam{Name: t.Name, InputSchema: in}
	if t.Description != "" {
		tool.Description = sdk.String(t.Description)
	}
	return tool, nil
}

// convert turns the SDK's message into a provider-neutral response.
func convert(msg *sdk.Message, model string) (*llm.Response, error) {
	out := &llm.Response{Model: msg.Model}
	if out.Model == "" {
		out.Model = model
	}
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			out.Parts = append(out.Parts, llm.Part{Text: b.Text})
		case "thinking", "redacted_thinking":
			out.Parts = append(out.Parts, llm.Part{Opaque: &llm.Opaque{Provider: llm.ProviderAnthropic, Type: b.Type, Raw: thinkingRaw(b)}})
		case "tool_use":
			in := json.RawMessage(append([]byte(nil), b.Input...))
			if len(in) == 0 {
				in = json.RawMessage(`{}`)
			}
			out.Parts = append(out.Parts, llm.Part{ToolUse: &llm.ToolUse{ID: b.ID, Name: b.Name, Input: in}})
		}
	}
	switch msg.StopReason {
	case "end_turn":
		out.StopReason = llm.StopEnd
	case "tool_use":
		out.StopReason = llm.StopToolUse
	case "max_tokens":
		out.StopReason = llm.StopMaxTokens
	default:
		out.StopReason = llm.StopOther
	}
	u := msg.Usage
	out.Usage = llm.Usage{
		Input:      int(u.InputTokens),
		Output:     int(u.OutputTokens),
		CacheRead:  int(u.CacheReadInputTokens),
		CacheWrite: int(u.CacheCreationInputTokens),
	}
	return out, nil
}

// thinkingRaw is a thinking or redacted_thinking block as the API sent it.
// The SDK keeps a streamed block's JSON current as thinking_delta and
// signature_delta arrive; when that JSON is missing the block is rebuilt
// from its fields, which are all it has.
func thinkingRaw(b sdk.ContentBlockUnion) json.RawMessage {
	if raw := b.RawJSON(); raw != "" && json.Valid([]byte(raw)) {
		var probe struct{ Type, Signature, Data string }
		if json.Unmarshal([]byte(raw), &probe) == nil && probe.Type == b.Type && probe.Signature == b.Signature && probe.Data == b.Data {
			return json.RawMessage(raw)
		}
	}
	var v any
	if b.Type == "redacted_thinking" {
		v = map[string]string{"type": b.Type, "data": b.Data}
	} else {
		v = map[string]string{"type": b.Type, "thinking": b.Thinking, "signature": b.Signature}
	}
	raw, _ := json.Marshal(v)
	return raw
}

// setThinking sets effort and thinking for model. Current models think
// adaptively by default; quarry sets output_config.effort, and sends a
// thinking configuration only to turn thinking off where the model allows
// it. Legacy models get neither.
func setThinking(params *sdk.MessageNewParams, model string, effort llm.Effort) {
	th := llm.ThinkingOf(model)
	if th.Legacy || effort == llm.EffortDefault {
		return
	}
	if effort == llm.EffortOff {
		switch th.Off {
		case "disabled":
			d := sdk.NewThinkingConfigDisabledParam()
			params.Thinking = sdk.ThinkingConfigParamUnion{OfDisabled: &d}
			return
		case "between_tools":
			params.Thinking = sdk.ThinkingConfigParamUnion{OfBetweenTools: &sdk.ThinkingConfigBetweenToolsParam{}}
		}
		effort = llm.EffortLow
	}
	params.OutputConfig.Effort = sdk.OutputConfigEffort(effort)
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
