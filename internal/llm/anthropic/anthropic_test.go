package anthropic_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/anthropic"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/llm/replay"
)

var (
	update = flag.Bool("update", false, "rewrite the testdata cassettes from the local fake server")
	record = flag.Bool("record", false, "record the testdata cassettes against the real Anthropic API (reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL)")
)

func newProvider(base, key string) llm.Provider {
	return anthropic.New(anthropic.Options{APIKey: key, BaseURL: base})
}

// TestConformance runs the suite against the fake once per behaviour
// family: each current model's rules (thinking in every reply, signatures
// bound to the prefix, the rejections) and the legacy API.
func TestConformance(t *testing.T) {
	for _, f := range []struct{ strong, cheap string }{
		{"claude-sonnet-5-5", "claude-haiku-5-5"},
		{"claude-opus-5-5", "claude-haiku-5-5"},
		{"claude-fable-5-1", "claude-sonnet-5-5"},
		{"", ""}, // legacy: model-strong, model-cheap
	} {
		for _, thinking := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s thinking=%v", f.strong, thinking), func(t *testing.T) {
				llmtest.Suite{NewServer: llmtest.NewAnthropicServer, NewProvider: newProvider, Name: "anthropic", KeyHint: "ANTHROPIC_API_KEY",
					Strong: f.strong, Cheap: f.cheap, Thinking: thinking}.Run(t)
			})
		}
	}
}

// TestPromptCaching checks the cache breakpoints sent and the cache tokens
// read back, and prices them exactly.
func TestPromptCaching(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := llmtest.NewAnthropicServer(t, "k-123456", llmtest.Answer{Text: "42", Usage: llm.Usage{Input: 12, Output: 6, CacheRead: 1000, CacheWrite: 200}})
		g := llm.New(llm.Config{Provider: anthropic.New(anthropic.Options{APIKey: "k-123456", BaseURL: srv.URL}), Name: "anthropic", Models: llm.ResolveModels("anthropic", "", "")})
		var evs []*event.ModelCalledData
		run := g.Run(llm.Budget{}, func(e *event.ModelCalledData) { evs = append(evs, e) })
		req := llm.Request{
			System: []llm.SystemBlock{{Text: "You are quarry's analyst.", Cache: true}, {Text: "Schema: orders(id, total)", Cache: true}, {Text: "Today is 2026-06-30."}},
			Tools: []llm.Tool{
				{Name: "describe_table", InputSchema: json.RawMessage(`{"type":"object","properties":{"table":{"type":"string"}},"required":["table"],"additionalProperties":false}`)},
				{Name: "run_query", Description: "Run SQL.", InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}}}`)},
			},
			Messages: []llm.Message{llm.UserText("How many orders?")},
		}
		var onText func(string)
		if stream {
			onText = func(string) {}
		}
		resp, err := run.Complete(context.Background(), req, onText)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(llm.Usage{Input: 12, Output: 6, CacheRead: 1000, CacheWrite: 200}, resp.Usage); diff != "" {
			t.Errorf("stream=%v usage (-want +got):\n%s", stream, diff)
		}
		// claude-sonnet-5-5: 12×2 + 6×10 + 1000×0.20 + 200×2.50 = 784 µ$.
		if len(evs) != 1 || evs[0].CostMicroUSD != 784 || evs[0].CacheReadTokens != 1000 || evs[0].CacheWriteTokens != 200 || run.Cost() != 784 {
			t.Errorf("stream=%v events %+v, cost %d", stream, evs, run.Cost())
		}

		r := srv.Requests()[0]
		if r.Header.Get("Anthropic-Version") == "" {
			t.Error("no Anthropic-Version header")
		}
		var body struct {
			Model  string
			Stream bool
			System []struct {
				Text         string
				CacheControl *struct{ Type string } `json:"cache_control"`
			}
			Tools []struct {
				Name         string
				InputSchema  map[string]any         `json:"input_schema"`
				CacheControl *struct{ Type string } `json:"cache_control"`
			}
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Model != "claude-sonnet-5-5" || body.Stream != stream || len(body.System) != 3 || len(body.Tools) != 2 {
			t.Fatalf("body %s", r.Body)
		}
		marks := []bool{body.System[0].CacheControl != nil, body.System[1].CacheControl != nil, body.System[2].CacheControl != nil, body.Tools[0].CacheControl != nil, body.Tools[1].CacheControl != nil}
		if diff := cmp.Diff([]bool{true, true, false, false, true}, marks); diff != "" {
			t.Errorf("cache_control on system 0-2, tools 0-1 (-want +got):\n%s", diff)
		}
		if body.Tools[0].InputSchema["additionalProperties"] != false || body.Tools[0].InputSchema["type"] != "object" {
			t.Errorf("input schema %v", body.Tools[0].InputSchema)
		}
	}
}

func TestNoKey(t *testing.T) {
	p := anthropic.New(anthropic.Options{})
	_, err := p.Complete(context.Background(), "m", llm.Request{Messages: []llm.Message{llm.UserText("hi")}}, nil)
	if err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("err %v", err)
	}
}

// TestCassette replays a recorded exchange with no key and no network.
// With -update it records the cassette from the local fake; with -record,
// from the real API (the key is read from the environment and never saved).
func TestCassette(t *testing.T) {
	path := filepath.Join("testdata", "cassettes", "plain_and_stream.json")
	req := llm.Request{System: []llm.SystemBlock{{Text: "Answer in one short sentence.", Cache: true}}, Messages: []llm.Message{llm.UserText("What is 6 times 7?")}, MaxTokens: 64}
	model := "claude-haiku-5-5"
	if *update || *record {
		base, key := "", ""
		if *record {
			base, key = os.Getenv("ANTHROPIC_BASE_URL"), os.Getenv("ANTHROPIC_API_KEY")
			if key == "" {
				t.Fatal("-record needs ANTHROPIC_API_KEY")
			}
		} else {
			key = "sk-ant-fake-recording-key-0001"
			srv := llmtest.NewAnthropicServer(t, key,
				llmtest.Answer{Text: "6 times 7 is 42.", Usage: llm.Usage{Input: 20, Output: 9}},
				llmtest.Answer{Text: "6 times 7 is 42.", Usage: llm.Usage{Input: 20, Output: 9}})
			base = srv.URL
		}
		rec := &replay.Recorder{Next: http.DefaultTransport, Keys: []string{key}}
		p := anthropic.New(anthropic.Options{APIKey: key, BaseURL: base, HTTPClient: &http.Client{Transport: rec}})
		if _, err := p.Complete(context.Background(), model, req, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Complete(context.Background(), model, req, func(string) {}); err != nil {
			t.Fatal(err)
		}
		if err := rec.Save(path); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), key) {
			t.Fatal("the cassette holds the key")
		}
	}
	c, err := replay.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rp := replay.NewReplayer(c)
	p := anthropic.New(anthropic.Options{BaseURL: "http://replay.invalid", HTTPClient: &http.Client{Transport: rp}})
	plain, err := p.Complete(context.Background(), model, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	var deltas []string
	streamed, err := p.Complete(context.Background(), model, req, func(d string) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	if plain.Text() == "" || streamed.Text() != strings.Join(deltas, "") || plain.Usage.Output == 0 || rp.Unused() != 0 {
		t.Errorf("plain %q, streamed %q from %q, unused %d", plain.Text(), streamed.Text(), deltas, rp.Unused())
	}
	// A request the cassette does not hold fails clearly.
	other := req
	other.Messages = []llm.Message{llm.UserText("Something else")}
	if _, err := p.Complete(context.Background(), model, other, nil); err == nil || !strings.Contains(err.Error(), "cassette has no unused exchange") {
		t.Errorf("unmatched request: %v", err)
	}
}
