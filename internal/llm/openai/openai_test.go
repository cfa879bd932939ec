package openai_test

import (
	"context"
	"encoding/json"
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

func TestConformance(t *testing.T) {
	llmtest.Suite{NewServer: llmtest.NewOpenAIServer, NewProvider: newProvider, Name: "openai", KeyHint: "OPENAI_API_KEY"}.Run(t)
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
