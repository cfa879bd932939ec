package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/llm/openai"
	"github.com/quarrydata/quarry/internal/llm/replay"
)

func newProvider(base, key string) llm.Provider {
	return openai.New(openai.Options{APIKey: key, BaseURL: base})
}

// TestConformance runs the suite once per behaviour family of the fake:
// OpenAI's reasoning models, servers that send reasoning_content, servers
// that put <think>…</think> in the content, and plain ones.
func TestConformance(t *testing.T) {
	for _, f := range []struct{ strong, cheap string }{
		{"gpt-6-sol", "gpt-6-luna"},
		{"deepseek-reasoner", "deepseek-reasoner"},
		{"qwen3:32b", "qwen3:4b"},
		{"", ""}, // plain: model-strong, model-cheap
	} {
		for _, thinking := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s thinking=%v", f.strong, thinking), func(t *testing.T) {
				llmtest.Suite{NewServer: llmtest.NewOpenAIServer, NewProvider: newProvider, Name: "openai", KeyHint: "OPENAI_API_KEY",
					Strong: f.strong, Cheap: f.cheap, Thinking: thinking}.Run(t)
			})
		}
	}
}

// TestLocalServer: no key, no usage reported (as Ollama and llama.cpp may
// do), cached prompt tokens when they are reported.
func TestLocalServer(t *testing.T) {
	srv := llmtest.NewOpenAIServer(t, "",
		llmtest.Answer{Text: "42", NoUsage: true},
		llmtest.Answer{Text: "42", NoUsage: true},
		llmtest.Answer{Text: "42", Usage: llm.Usage{Input: 10, Output: 2, CacheRead: 90}})
	p := openai.New(openai.Options{BaseURL: srv.URL + "/"})
	req := llm.Request{System: []llm.SystemBlock{{Text: "Be brief.", Cache: true}, {Text: "Schema: orders"}}, Messages: []llm.Message{llm.UserText("How many?")}}
	for _, stream := range []bool{false, true} {
		var onText func(string)
		if stream {
			onText = func(string) {}
		}
		resp, err := p.Complete(context.Background(), "llama3.1", req, onText)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text() != "42" || resp.Usage != (llm.Usage{}) {
			t.Errorf("stream=%v: %q, usage %+v", stream, resp.Text(), resp.Usage)
		}
	}
	resp, err := p.Complete(context.Background(), "llama3.1", req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage != (llm.Usage{Input: 10, Output: 2, CacheRead: 90}) {
		t.Errorf("usage %+v", resp.Usage)
	}
	r := srv.Requests()[0]
	if r.Header.Get("Authorization") != "" {
		t.Errorf("sent Authorization %q with no key", r.Header.Get("Authorization"))
	}
	var body struct {
		Messages  []struct{ Role, Content string }
		MaxTokens int `json:"max_tokens"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" || body.Messages[0].Content != "Be brief.\n\nSchema: orders" || body.MaxTokens != llm.DefaultMaxTokens {
		t.Errorf("body %s", r.Body)
	}
}

// TestCassette records against the local fake and replays with no key.
func TestCassette(t *testing.T) {
	key := "sk-proj-recording-key-0002"
	srv := llmtest.NewOpenAIServer(t, key, llmtest.Answer{Text: "42.", Usage: llm.Usage{Input: 8, Output: 2}}, llmtest.Answer{Text: "42.", Usage: llm.Usage{Input: 8, Output: 2}})
	rec := &replay.Recorder{Next: http.DefaultTransport, Keys: []string{key}}
	req := llm.Request{Messages: []llm.Message{llm.UserText("6 times 7?")}}
	p := openai.New(openai.Options{APIKey: key, BaseURL: srv.URL, HTTPClient: &http.Client{Transport: rec}})
	if _, err := p.Complete(context.Background(), "gpt-5-mini", req, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(context.Background(), "gpt-5-mini", req, func(string) {}); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rec.Cassette())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), key) || strings.Contains(strings.ToLower(string(data)), "bearer") {
		t.Fatalf("the cassette holds the key: %s", data)
	}
	rp := replay.NewReplayer(rec.Cassette())
	offline := openai.New(openai.Options{BaseURL: "http://replay.invalid/v1", HTTPClient: &http.Client{Transport: rp}})
	for _, onText := range []func(string){nil, func(string) {}} {
		resp, err := offline.Complete(context.Background(), "gpt-5-mini", req, onText)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text() != "42." || resp.Usage.Input != 8 {
			t.Errorf("replayed %q, usage %+v", resp.Text(), resp.Usage)
		}
	}
}

// TestReasoningRules: a model that calls tools on chat completions only
// without reasoning gets reasoning_effort "none" with tools and its
// configured effort without; one that has no "none" is refused with the
// fix before anything is sent; reasoning never reaches the text.
func TestReasoningRules(t *testing.T) {
	srv := llmtest.NewOpenAIServer(t, "k", llmtest.Answer{Text: "ok"}, llmtest.Answer{Text: "ok"})
	p := openai.New(openai.Options{APIKey: "k", BaseURL: srv.URL})
	tools := []llm.Tool{{Name: "run_query", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}}
	req := llm.Request{Messages: []llm.Message{llm.UserText("hi")}, Tools: tools, Effort: llm.EffortHigh}
	if _, err := p.Complete(context.Background(), "gpt-6-sol", req, nil); err != nil {
		t.Fatal(err)
	}
	req.Tools = nil
	if _, err := p.Complete(context.Background(), "gpt-6-sol", req, nil); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()
	if !strings.Contains(string(r[0].Body), `"reasoning_effort":"none"`) || !strings.Contains(string(r[1].Body), `"reasoning_effort":"high"`) {
		t.Errorf("bodies %s\n%s", r[0].Body, r[1].Body)
	}
	req.Tools = tools
	_, err := p.Complete(context.Background(), "gpt-6.1-sol", req, nil)
	if err == nil || !strings.Contains(err.Error(), "use gpt-6-sol") || len(srv.Requests()) != 2 {
		t.Errorf("gpt-6.1-sol with tools: %v", err)
	}
}

// TestThinkSplitAcrossDeltas: <think> tags cut anywhere in a stream never
// reach the text callback.
func TestThinkSplitAcrossDeltas(t *testing.T) {
	srv := llmtest.NewOpenAIServer(t, "", llmtest.Answer{Text: "The answer is 42.", Thinking: "six times seven"})
	p := openai.New(openai.Options{BaseURL: srv.URL})
	var got strings.Builder
	resp, err := p.Complete(context.Background(), "qwen3:8b", llm.Request{Messages: []llm.Message{llm.UserText("6*7?")}}, func(d string) { got.WriteString(d) })
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != "The answer is 42." || resp.Text() != "The answer is 42." {
		t.Errorf("streamed %q, text %q", got.String(), resp.Text())
	}
	if len(resp.Parts) == 0 || resp.Parts[0].Opaque == nil || !strings.Contains(string(resp.Parts[0].Opaque.Raw), "six times seven") {
		t.Errorf("parts %+v", resp.Parts)
	}
}
