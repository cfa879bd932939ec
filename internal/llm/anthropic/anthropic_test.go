package anthropic_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/goldentest"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/anthropic"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/llm/replay"
)

var (
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

// recorder returns a provider whose exchanges rec records: with -record
// against the real API (key and base URL from the environment), otherwise
// against the local rule-following fake serving answers, whose refusals
// fail the test.
func recorder(t *testing.T, answers ...llmtest.Answer) (*anthropic.Provider, *replay.Recorder, string) {
	t.Helper()
	base, key := os.Getenv("ANTHROPIC_BASE_URL"), os.Getenv("ANTHROPIC_API_KEY")
	if *record {
		if key == "" {
			t.Fatal("-record needs ANTHROPIC_API_KEY")
		}
	} else {
		key = "sk-ant-fake-recording-key-0001"
		srv := llmtest.NewAnthropicServer(t, key, answers...)
		base = srv.URL
		t.Cleanup(func() {
			if r := srv.Refused(); len(r) > 0 {
				t.Errorf("the fake refused: %s", r[0])
			}
		})
	}
	rec := &replay.Recorder{Next: http.DefaultTransport, Keys: []string{key}}
	return anthropic.New(anthropic.Options{APIKey: key, BaseURL: base, HTTPClient: &http.Client{Transport: rec}}), rec, key
}

// TestCassette replays a recorded exchange with no key and no network.
// With -update it records the cassette from the local fake; with -record,
// from the real API (the key is read from the environment and never saved).
func TestCassette(t *testing.T) {
	path := filepath.Join("testdata", "cassettes", "plain_and_stream.json")
	req := llm.Request{System: []llm.SystemBlock{{Text: "Answer in one short sentence.", Cache: true}}, Messages: []llm.Message{llm.UserText("What is 6 times 7?")}, MaxTokens: 64}
	model := "claude-haiku-5-5"
	if goldentest.Update() || *record {
		p, rec, key := recorder(t,
			llmtest.Answer{Text: "6 times 7 is 42.", Usage: llm.Usage{Input: 20, Output: 9}},
			llmtest.Answer{Text: "6 times 7 is 42.", Usage: llm.Usage{Input: 20, Output: 9}})
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

// TestToolLoopCassette replays a recorded tool loop on a current model: the
// first reply calls a tool after a signed thinking block, and the second
// request must carry that turn back byte for byte, or the cassette (which
// matches requests by body) holds no answer for it. With -update it is
// recorded from the local fake, which follows the model's documented
// rules; with -record, from the real API.
func TestToolLoopCassette(t *testing.T) {
	path := filepath.Join("testdata", "cassettes", "tool_loop.json")
	model := "claude-sonnet-5-5"
	tools := []llm.Tool{{Name: "run_query", Description: "Run one read-only SQL query.", InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`)}}
	first := llm.Request{System: []llm.SystemBlock{{Text: "You answer questions about a database with run_query.", Cache: true}}, Tools: tools,
		Messages: []llm.Message{llm.UserText("How many orders are there? Use the tool.")}, MaxTokens: 2048, Effort: llm.EffortLow}
	loop := func(p *anthropic.Provider) (*llm.Response, *llm.Response, error) {
		r1, err := p.Complete(context.Background(), model, first, nil)
		if err != nil {
			return nil, nil, err
		}
		uses := r1.ToolUses()
		if len(uses) != 1 {
			return r1, nil, fmt.Errorf("the first reply called %d tools", len(uses))
		}
		second := first
		second.Messages = append(slices.Clone(first.Messages), r1.AssistantMessage(),
			llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{ToolResult: &llm.ToolResult{ToolUseID: uses[0].ID, Content: `[{"n":42}]`}}}})
		r2, err := p.Complete(context.Background(), model, second, func(string) {})
		return r1, r2, err
	}
	if goldentest.Update() || *record {
		p, rec, _ := recorder(t,
			llmtest.Answer{Thinking: "I will count the orders.", ToolUses: []llm.ToolUse{{ID: "toolu_01", Name: "run_query", Input: json.RawMessage(`{"sql":"SELECT count(*) AS n FROM orders"}`)}}, Usage: llm.Usage{Input: 310, Output: 64}},
			llmtest.Answer{Text: "There are 42 orders.", Usage: llm.Usage{Input: 420, Output: 12}})
		if _, _, err := loop(p); err != nil {
			t.Fatal(err)
		}
		if err := rec.Save(path); err != nil {
			t.Fatal(err)
		}
	}
	c, err := replay.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rp := replay.NewReplayer(c)
	r1, r2, err := loop(anthropic.New(anthropic.Options{BaseURL: "http://replay.invalid", HTTPClient: &http.Client{Transport: rp}}))
	if err != nil {
		t.Fatal(err)
	}
	var opaque int
	for _, p := range r1.Parts {
		if p.Opaque != nil {
			opaque++
		}
	}
	if opaque == 0 || r1.Text() != "" || !strings.Contains(r2.Text(), "42") || rp.Unused() != 0 {
		t.Errorf("thinking blocks %d, first text %q, answer %q, unused %d", opaque, r1.Text(), r2.Text(), rp.Unused())
	}
}
