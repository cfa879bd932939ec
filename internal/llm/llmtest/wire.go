package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

func (*anthropicWire) path() string { return "/v1/messages" }

func (*anthropicWire) unauthorized() Answer {
	return Answer{Status: http.StatusUnauthorized, Body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}
}

func (aw *anthropicWire) write(w http.ResponseWriter, r *http.Request, body []byte, key, model string, stream bool, a Answer) {
	stop := a.StopReason
	if stop == "" {
		stop = "end_turn"
		if len(a.ToolUses) > 0 {
			stop = "tool_use"
		}
	}
	usage := map[string]any{
		"input_tokens":                a.Usage.Input,
		"output_tokens":               a.Usage.Output,
		"cache_read_input_tokens":     a.Usage.CacheRead,
		"cache_creation_input_tokens": a.Usage.CacheWrite,
	}
	if !stream {
		hangJSON(r, a)
		content := aw.thinkingBlocks(body, key, model, a)
		if a.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": a.Text})
		}
		for _, u := range a.ToolUses {
			content = append(content, map[string]any{"type": "tool_use", "id": u.ID, "name": u.Name, "input": json.RawMessage(inputOf(u))})
		}
		if content == nil {
			content = []any{}
		}
		aw.issue(content)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	s := newSSE(w, r, a)
	startUsage := map[string]any{
		"input_tokens": a.Usage.Input, "output_tokens": 1,
		"cache_read_input_tokens": a.Usage.CacheRead, "cache_creation_input_tokens": a.Usage.CacheWrite,
	}
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": startUsage,
	}})
	s.event("ping", map[string]any{"type": "ping"})
	idx := 0
	issued := aw.thinkingBlocks(body, key, model, a)
	for _, b := range issued {
		blk := b.(map[string]any)
		if blk["type"] == "redacted_thinking" {
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": blk})
		} else {
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})
			if t, _ := blk["thinking"].(string); t != "" {
				for _, d := range Deltas(t) {
					s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "thinking_delta", "thinking": d}})
				}
			}
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "signature_delta", "signature": blk["signature"]}})
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	if a.Text != "" {
		issued = append(issued, map[string]any{"type": "text", "text": a.Text})
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, d := range deltasOf(a) {
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": d}})
			s.delta()
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	for _, u := range a.ToolUses {
		issued = append(issued, map[string]any{"type": "tool_use", "id": u.ID, "name": u.Name, "input": json.RawMessage(inputOf(u))})
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "tool_use", "id": u.ID, "name": u.Name, "input": map[string]any{}}})
		for _, piece := range splitJSON(inputOf(u)) {
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	aw.issue(issued)
	s.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": a.Usage.Output}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

// openaiWire speaks the OpenAI chat-completions API.
type openaiWire struct{}

// authorized: the Messages API reads an API key from x-api-key only.
func (*anthropicWire) authorized(h http.Header, key string) bool {
	return h.Get("X-Api-Key") == key
}

// authorized: OpenAI-compatible APIs read a bearer token.
func (openaiWire) authorized(h http.Header, key string) bool {
	return h.Get("Authorization") == "Bearer "+key
}

func (*anthropicWire) tooLong(tokens, window int) Answer {
	return *invalid("prompt is too long: %d tokens > %d maximum", tokens, window)
}

func (openaiWire) tooLong(tokens, window int) Answer {
	return *openaiInvalid("messages", "This model's maximum context length is %d tokens. However, you requested %d tokens in the messages. Please reduce the length of the messages.", window, tokens)
}

func (openaiWire) path() string { return "/v1/chat/completions" }

func (openaiWire) unauthorized() Answer {
	return Answer{Status: http.StatusUnauthorized, Body: `{"error":{"message":"Incorrect API key provided: sk-wron*************1234.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`}
}

func (openaiWire) write(w http.ResponseWriter, r *http.Request, body []byte, key, model string, stream bool, a Answer) {
	fam := openaiFamilyOf(model)
	content, reasoning := a.Text, ""
	if a.Thinking != "" {
		switch fam {
		case familyReasoningContent:
			reasoning = a.Thinking
		case familyThinkTags:
			content = "<think>\n" + a.Thinking + "\n</think>\n\n" + a.Text
		}
	}
	finish := a.StopReason
	if finish == "" {
		finish = "stop"
		if len(a.ToolUses) > 0 {
			finish = "tool_calls"
		}
	}
	usage := map[string]any{
		"prompt_tokens":         a.Usage.Input + a.Usage.CacheRead,
		"completion_tokens":     a.Usage.Output,
		"total_tokens":          a.Usage.Input + a.Usage.CacheRead + a.Usage.Output,
		"prompt_tokens_details": map[string]any{"cached_tokens": a.Usage.CacheRead},
	}
	if fam == familyOfficialReasoning {
		// Reasoning tokens are part of completion_tokens, reported apart.
		usage["completion_tokens_details"] = map[string]any{"reasoning_tokens": len(Deltas(a.Thinking))}
	}
	var calls []any
	for i, u := range a.ToolUses {
		calls = append(calls, map[string]any{"index": i, "id": u.ID, "type": "function", "function": map[string]any{"name": u.Name, "arguments": inputOf(u)}})
	}
	if !stream {
		hangJSON(r, a)
		msg := map[string]any{"role": "assistant", "content": content}
		if reasoning != "" {
			msg["reasoning_content"] = reasoning
		}
		if calls != nil {
			msg["tool_calls"] = calls
		}
		out := map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		}
		if !a.NoUsage {
			out["usage"] = usage
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
		return
	}
	s := newSSE(w, r, a)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	s.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, d := range Deltas(reasoning) {
		s.event("", chunk(map[string]any{"reasoning_content": d}, nil))
	}
	deltas := deltasOf(a)
	if content != a.Text {
		// <think>…</think> arrives in pieces, tags split across deltas.
		deltas = append([]string{"<thi", "nk>\n"}, append(Deltas(strings.TrimPrefix(content[:len(content)-len(a.Text)], "<think>\n")), deltas...)...)
	}
	for _, d := range deltas {
		s.event("", chunk(map[string]any{"content": d}, nil))
		s.delta()
	}
	for i, u := range a.ToolUses {
		s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": u.ID, "type": "function", "function": map[string]any{"name": u.Name, "arguments": ""}}}}, nil))
		for _, piece := range splitJSON(inputOf(u)) {
			s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}, nil))
		}
	}
	s.event("", chunk(map[string]any{}, finish))
	if !a.NoUsage {
		s.event("", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": model, "choices": []any{}, "usage": usage})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	w.(http.Flusher).Flush()
}
