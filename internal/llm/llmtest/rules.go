package llmtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// This file holds the documented request rules of the Anthropic models the
// fake serves, one behaviour family per model name:
//
//   - current (claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5,
//     claude-fable-5-1, and any claude-*-5-5 or -5-1): adaptive thinking in
//     every reply, a thinking block with a signature first (its text empty
//     unless the answer has Thinking); the signature is bound to the model,
//     the account and the transcript prefix that produced it (system prompt,
//     tools, earlier messages). A request whose assistant turn lost a
//     thinking or redacted_thinking block, or came back altered, or a prefix
//     that changed under it, is a 400. So are forced tool use (tool_choice
//     any or tool), an assistant prefill, non-default temperature, top_p or
//     top_k, manual thinking (type enabled), turning thinking off where the
//     model cannot (Opus 5.5 and Fable 5.1: never; Sonnet 5.5: with
//     between_tools, not disabled), and an unknown effort.
//   - legacy (every other name, e.g. claude-haiku-4-5 or the suite's
//     model-strong): no thinking unless asked, and none of the above
//     checked — the API of a year ago.
//
// Error bodies have the API's shape: {"type":"error","error":{"type":
// "invalid_request_error","message":…}}.

// anthropicFamily is a model's behaviour family.
type anthropicFamily int

const (
	familyLegacy anthropicFamily = iota
	familyCurrent
)

func anthropicFamilyOf(model string) anthropicFamily {
	if strings.HasPrefix(model, "claude-") && (strings.HasSuffix(model, "-5-5") || strings.HasSuffix(model, "-5-1")) {
		return familyCurrent
	}
	return familyLegacy
}

// anthropicWire speaks the Anthropic Messages API and remembers the
// assistant turns it issued, by the signature of their first thinking block.
type anthropicWire struct {
	mu     sync.Mutex
	issued map[string]string // signature → the turn's content, canonical
}

func newAnthropicWire() *anthropicWire {
	return &anthropicWire{issued: map[string]string{}}
}

// anthropicRequest is the part of a request the rules read.
type anthropicRequest struct {
	Model       string            `json:"model"`
	System      json.RawMessage   `json:"system"`
	Tools       json.RawMessage   `json:"tools"`
	Messages    []json.RawMessage `json:"messages"`
	Temperature *float64          `json:"temperature"`
	TopP        *float64          `json:"top_p"`
	TopK        *int              `json:"top_k"`
	ToolChoice  *struct {
		Type string `json:"type"`
	} `json:"tool_choice"`
	Thinking *struct {
		Type string `json:"type"`
	} `json:"thinking"`
	OutputConfig *struct {
		Effort string `json:"effort"`
	} `json:"output_config"`
}

type anthropicMessage struct {
	Role    string            `json:"role"`
	Content []json.RawMessage `json:"content"`
}

func invalid(format string, args ...any) *Answer {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": fmt.Sprintf(format, args...)}, "request_id": "req_fake"})
	return &Answer{Status: http.StatusBadRequest, Body: string(b)}
}

func (aw *anthropicWire) check(body []byte, key string) *Answer {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return invalid("the request body is not valid JSON: %v", err)
	}
	if anthropicFamilyOf(req.Model) == familyLegacy {
		return nil
	}
	if tc := req.ToolChoice; tc != nil && (tc.Type == "any" || tc.Type == "tool") {
		return invalid("tool_choice: forced tool use (type %q) is not supported with thinking on %s; use \"auto\" or \"none\"", tc.Type, req.Model)
	}
	if t := req.Temperature; t != nil && *t != 1 {
		return invalid("temperature: setting a non-default value is not supported for %s", req.Model)
	}
	if req.TopP != nil && *req.TopP != 1 {
		return invalid("top_p: setting a non-default value is not supported for %s", req.Model)
	}
	if req.TopK != nil {
		return invalid("top_k: is not supported for %s", req.Model)
	}
	if th := req.Thinking; th != nil {
		switch {
		case th.Type == "enabled":
			return invalid(`"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`)
		case th.Type == "disabled" && req.Model != "claude-haiku-5-5":
			return invalid(`"thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`)
		case th.Type == "between_tools" && req.Model != "claude-sonnet-5-5" && req.Model != "claude-haiku-5-5":
			return invalid(`"thinking.type.between_tools" is not supported for this model.`)
		}
	}
	if oc := req.OutputConfig; oc != nil && oc.Effort != "" {
		switch oc.Effort {
		case "low", "medium", "high", "xhigh", "max":
		default:
			return invalid("output_config.effort: %q is not one of low, medium, high, xhigh, max", oc.Effort)
		}
	}
	if n := len(req.Messages); n > 0 {
		var last anthropicMessage
		_ = json.Unmarshal(req.Messages[n-1], &last)
		if last.Role == "assistant" {
			return invalid("This model does not support assistant message prefill. The conversation must end with a user message.")
		}
	}
	for i, raw := range req.Messages {
		var m anthropicMessage
		if err := json.Unmarshal(raw, &m); err != nil || m.Role != "assistant" {
			continue
		}
		if len(m.Content) == 0 {
			return invalid("messages.%d: an assistant turn must carry the content it was returned with", i)
		}
		var first struct{ Type, Thinking, Signature string }
		_ = json.Unmarshal(m.Content[0], &first)
		if first.Type != "thinking" {
			return invalid("messages.%d.content.0: the assistant turn must begin with the thinking block it was returned with; thinking blocks must be passed back unmodified", i)
		}
		want := aw.sign(key, req.Model, req.System, req.Tools, req.Messages[:i], first.Thinking)
		if first.Signature != want {
			return invalid("messages.%d.content.0: Invalid `signature` in `thinking` block", i)
		}
		aw.mu.Lock()
		issued, ok := aw.issued[first.Signature]
		aw.mu.Unlock()
		if !ok || issued != canonicalContent(m.Content) {
			return invalid("messages.%d: the assistant turn differs from the one returned (a thinking, redacted_thinking or other block was dropped, reordered or altered); send it back exactly as received", i)
		}
	}
	return nil
}

// thinkingBlocks returns the thinking (and redacted_thinking) blocks that
// begin a reply of model to body: none for the legacy family unless the
// answer asks for thinking.
func (aw *anthropicWire) thinkingBlocks(body []byte, key, model string, a Answer) []any {
	if anthropicFamilyOf(model) == familyLegacy && a.Thinking == "" && !a.Redacted {
		return nil
	}
	var req anthropicRequest
	_ = json.Unmarshal(body, &req)
	sig := aw.sign(key, model, req.System, req.Tools, req.Messages, a.Thinking)
	out := []any{map[string]any{"type": "thinking", "thinking": a.Thinking, "signature": sig}}
	if a.Redacted {
		out = append(out, map[string]any{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a" + sig[:16]})
	}
	return out
}

// issue remembers a reply's content, to check it when it comes back.
func (aw *anthropicWire) issue(content []any) {
	if len(content) == 0 {
		return
	}
	first, _ := content[0].(map[string]any)
	if first["type"] != "thinking" {
		return
	}
	var raws []json.RawMessage
	for _, c := range content {
		b, _ := json.Marshal(c)
		raws = append(raws, b)
	}
	aw.mu.Lock()
	aw.issued[first["signature"].(string)] = canonicalContent(raws)
	aw.mu.Unlock()
}

// sign binds a thinking block to the account, the model and the prefix
// that produced it. cache_control marks are not content and are left out.
func (aw *anthropicWire) sign(key, model string, system, tools json.RawMessage, prefix []json.RawMessage, thinking string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", key, model, canonical(system), canonical(tools))
	for _, m := range prefix {
		fmt.Fprintf(h, "%s\x00", canonical(m))
	}
	h.Write([]byte(thinking))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// canonical re-encodes JSON with sorted keys and no cache_control.
func canonical(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(strip(v))
	return string(b)
}

func strip(v any) any {
	switch t := v.(type) {
	case map[string]any:
		delete(t, "cache_control")
		for k, x := range t {
			t[k] = strip(x)
		}
	case []any:
		for i, x := range t {
			t[i] = strip(x)
		}
	}
	return v
}

func canonicalContent(blocks []json.RawMessage) string {
	parts := make([]string, len(blocks))
	for i, b := range blocks {
		parts[i] = canonical(b)
	}
	return strings.Join(parts, "\n")
}

// The OpenAI-compatible families, by model name:
//
//   - official reasoning models (gpt-5…, gpt-6…, o1/o3/o4…): max_tokens is
//     refused (max_completion_tokens is their field), so are non-default
//     temperature and top_p; reasoning tokens are reported in
//     completion_tokens_details; gpt-6.1-sol refuses reasoning_effort none
//     and minimal; GPT-6 and GPT-5.4+ take function tools only with
//     reasoning_effort "none" (its absence means medium).
//   - reasoning_content servers (names with "reasoner", "-r1" or "qwq", as
//     DeepSeek's API, vLLM and llama.cpp serve them): the reasoning comes in
//     a reasoning_content field, and sending it back in an assistant
//     message is a 400.
//   - <think> servers (names with "qwen3", "think" or "gpt-oss", as Ollama
//     and llama.cpp serve them without a reasoning parser): the reasoning
//     comes inside the content, between <think> and </think>.
//   - plain (every other name): no reasoning.
type openaiFamily int

const (
	familyPlain openaiFamily = iota
	familyOfficialReasoning
	familyReasoningContent
	familyThinkTags
)

func openaiFamilyOf(model string) openaiFamily {
	switch {
	case strings.HasPrefix(model, "gpt-5") || strings.HasPrefix(model, "gpt-6") || strings.HasPrefix(model, "o1") || strings.HasPrefix(model, "o3") || strings.HasPrefix(model, "o4"):
		return familyOfficialReasoning
	case strings.Contains(model, "reasoner") || strings.Contains(model, "-r1") || strings.Contains(model, "qwq"):
		return familyReasoningContent
	case strings.Contains(model, "qwen3") || strings.Contains(model, "think") || strings.Contains(model, "gpt-oss"):
		return familyThinkTags
	}
	return familyPlain
}

func openaiInvalid(param, format string, args ...any) *Answer {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": fmt.Sprintf(format, args...), "type": "invalid_request_error", "param": param, "code": "unsupported_parameter"}})
	return &Answer{Status: http.StatusBadRequest, Body: string(b)}
}

func (openaiWire) check(body []byte, key string) *Answer {
	var req struct {
		Model           string            `json:"model"`
		MaxTokens       *int              `json:"max_tokens"`
		Temperature     *float64          `json:"temperature"`
		TopP            *float64          `json:"top_p"`
		ReasoningEffort string            `json:"reasoning_effort"`
		Tools           []json.RawMessage `json:"tools"`
		Messages        []struct {
			Role             string  `json:"role"`
			ReasoningContent *string `json:"reasoning_content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return openaiInvalid("", "We could not parse the JSON body of your request.")
	}
	switch openaiFamilyOf(req.Model) {
	case familyOfficialReasoning:
		if req.MaxTokens != nil {
			return openaiInvalid("max_tokens", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
		}
		if t := req.Temperature; t != nil && *t != 1 {
			return openaiInvalid("temperature", "Unsupported value: 'temperature' does not support %v with this model. Only the default (1) value is supported.", *t)
		}
		if req.TopP != nil && *req.TopP != 1 {
			return openaiInvalid("top_p", "Unsupported parameter: 'top_p' is not supported with this model.")
		}
		if len(req.Tools) > 0 && req.ReasoningEffort != "none" && (strings.HasPrefix(req.Model, "gpt-6") || strings.HasPrefix(req.Model, "gpt-5.4") || strings.HasPrefix(req.Model, "gpt-5.6")) {
			return openaiInvalid("reasoning_effort", "Function tools with reasoning_effort are not supported for %s in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.", req.Model)
		}
		if req.Model == "gpt-6.1-sol" && (req.ReasoningEffort == "none" || req.ReasoningEffort == "minimal") {
			return openaiInvalid("reasoning_effort", "Unsupported value: 'reasoning_effort' does not support '%s' with this model. Supported values are: 'low', 'medium', 'high', 'xhigh' and 'max'.", req.ReasoningEffort)
		}
	case familyReasoningContent:
		for i, m := range req.Messages {
			if m.Role == "assistant" && m.ReasoningContent != nil {
				return openaiInvalid(fmt.Sprintf("messages[%d].reasoning_content", i), "The reasoning_content of an earlier turn must not be sent back in the input messages.")
			}
		}
	}
	return nil
}
