package openai

import (
	"strings"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
)

// reasoningEffort is the reasoning_effort to send to an OpenAI reasoning
// model ("" for the model's default). With tools, the models that reason
// only through the Responses API on chat completions get "none", and those
// that have no "none" are refused with the fix.
func reasoningEffort(model string, e llm.Effort, tools bool) (string, error) {
	if tools && toolsNeedNone(model) {
		if llm.ThinkingOf(model).NoNone {
			return "", quarry.Errorf(quarry.KindConfig, "the OpenAI model %s calls tools only through the Responses API, which quarry does not speak yet; use gpt-6-sol (or gpt-6-luna) for model.model", model)
		}
		return "none", nil
	}
	switch e {
	case llm.EffortDefault:
		return "", nil
	case llm.EffortOff:
		if llm.ThinkingOf(model).NoNone {
			return "low", nil
		}
		return "none", nil
	}
	return string(e), nil
}

// toolsNeedNone reports whether model, on chat completions, accepts
// function tools only with reasoning_effort "none" (GPT-6, GPT-5.4 and
// later).
func toolsNeedNone(model string) bool {
	if strings.HasPrefix(model, "gpt-6") {
		return true
	}
	for _, p := range []string{"gpt-5.4", "gpt-5.5", "gpt-5.6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// splitThink separates a leading <think>…</think> block (as Ollama and the
// llama.cpp server send reasoning models' thinking without a reasoning
// parser) from the answer. Content with no such block is all answer; an
// unclosed block is all reasoning.
func splitThink(content string) (reasoning, text string) {
	t := strings.TrimLeft(content, " \t\r\n")
	if !strings.HasPrefix(t, "<think>") {
		return "", content
	}
	t = t[len("<think>"):]
	end := strings.Index(t, "</think>")
	if end < 0 {
		return strings.TrimSpace(t), ""
	}
	return strings.TrimSpace(t[:end]), strings.TrimLeft(t[end+len("</think>"):], " \t\r\n")
}

// thinkFilter removes a leading <think>…</think> block from streamed
// content, whose tags may be split across deltas, and keeps what it held.
type thinkFilter struct {
	state     int // 0: deciding, 1: inside the block, 2: answer
	pending   strings.Builder
	reasoning strings.Builder
}

// feed takes a delta and returns the part of it that is answer.
func (f *thinkFilter) feed(d string) string {
	switch f.state {
	case 2:
		return d
	case 0:
		f.pending.WriteString(d)
		p := strings.TrimLeft(f.pending.String(), " \t\r\n")
		switch {
		case strings.HasPrefix(p, "<think>"):
			f.state = 1
			rest := p[len("<think>"):]
			f.pending.Reset()
			return f.feed(rest)
		case strings.HasPrefix("<think>", p):
			return "" // not decided yet
		}
		f.state = 2
		out := f.pending.String()
		f.pending.Reset()
		return out
	}
	f.pending.WriteString(d)
	p := f.pending.String()
	if end := strings.Index(p, "</think>"); end >= 0 {
		f.reasoning.WriteString(strings.TrimSpace(p[:end]))
		f.state = 2
		f.pending.Reset()
		return strings.TrimLeft(p[end+len("</think>"):], " \t\r\n")
	}
	return ""
}

// flush returns what is still held when the stream ends: undecided text is
// answer; an unclosed block is reasoning.
func (f *thinkFilter) flush() string {
	p := f.pending.String()
	f.pending.Reset()
	if f.state == 1 {
		f.reasoning.WriteString(strings.TrimSpace(p))
		return ""
	}
	return p
}
