package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Suite is the conformance suite every provider adapter runs: its real SDK
// code against a local fake of its API, through an llm.Gateway with a fake
// sleeper, so that retries take no time.
type Suite struct {
	// NewServer starts the provider's fake API (NewAnthropicServer,
	// NewOpenAIServer).
	NewServer func(t testing.TB, key string, answers ...Answer) *Server
	// NewProvider returns the adapter for a base URL and key.
	NewProvider func(baseURL, key string) llm.Provider
	// Name is the gateway's provider name; KeyHint the environment
	// variable the 401 message must name.
	Name, KeyHint string
	// Strong and Cheap are the tiers' models ("" for model-strong and
	// model-cheap). Their names pick the fake's behaviour family (see
	// rules.go), so an adapter runs the suite once per family.
	Strong, Cheap string
	// Thinking makes the fake think in every reply that can (reasoning
	// text, a redacted block), to prove thinking never reaches the
	// answer and survives the tool loop.
	Thinking bool
}

// Sleeper records the waits a Gateway asks for, and waits for none.
type Sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Sleep implements llm.Config.Sleep.
func (s *Sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

// Waits returns the waits asked for so far.
func (s *Sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// testKey is the key the suite's provider sends and its server expects.
const testKey = "sk-test-0123456789abcdef"

// Run runs the suite.
func (s Suite) Run(t *testing.T) {
	if s.Strong == "" {
		s.Strong = "model-strong"
	}
	if s.Cheap == "" {
		s.Cheap = "model-cheap"
	}
	think := func(a Answer) Answer {
		if s.Thinking {
			a.Thinking = "The user wants a count; I will query the orders table."
			a.Redacted = true
		}
		return a
	}
	type env struct {
		srv    *Server
		run    *llm.Run
		sleep  *Sleeper
		events *[]*event.ModelCalledData
	}
	setup := func(t *testing.T, key string, timeout time.Duration, answers ...Answer) env {
		srv := s.NewServer(t, testKey, answers...)
		sl := &Sleeper{}
		g := llm.New(llm.Config{
			Provider:    s.NewProvider(srv.URL, key),
			Name:        s.Name,
			Models:      llm.Models{Strong: s.Strong, Cheap: s.Cheap},
			MaxAttempts: 3,
			BaseDelay:   time.Second,
			CallTimeout: timeout,
			Sleep:       sl.Sleep,
			Jitter:      func() float64 { return 0 },
		})
		var evs []*event.ModelCalledData
		var mu sync.Mutex
		run := g.Run(llm.Budget{}, func(e *event.ModelCalledData) { mu.Lock(); evs = append(evs, e); mu.Unlock() })
		return env{srv: srv, run: run, sleep: sl, events: &evs}
	}
	ask := llm.Request{System: []llm.SystemBlock{{Text: "You answer questions.", Cache: true}}, Messages: []llm.Message{llm.UserText("How many orders?")}}
	ctx := context.Background()

	t.Run("text", func(t *testing.T) {
		e := setup(t, testKey, 5*time.Second, think(Answer{Text: "There are 42 orders.", Usage: llm.Usage{Input: 12, Output: 6}}))
		resp, err := e.run.Complete(ctx, ask, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text() != "There are 42 orders." || resp.StopReason != llm.StopEnd {
			t.Errorf("got %q (%s)", resp.Text(), resp.StopReason)
		}
		if resp.Usage.Input != 12 || resp.Usage.Output != 6 {
			t.Errorf("usage %+v", resp.Usage)
		}
		reqs := e.srv.Requests()
		if len(reqs) != 1 || !e.srv.wire.authorized(reqs[0].Header, testKey) {
			t.Errorf("requests %d, the key is not where the API reads it (Authorization %q, X-Api-Key set %v)", len(reqs), reqs[0].Header.Get("Authorization"), reqs[0].Header.Get("X-Api-Key") != "")
		}
		if !strings.Contains(string(reqs[0].Body), `"`+s.Strong+`"`) || !strings.Contains(string(reqs[0].Body), "How many orders?") {
			t.Errorf("request body %s", reqs[0].Body)
		}
		if len(*e.events) != 1 || (*e.events)[0].Attempt != 1 || (*e.events)[0].InputTokens != 12 {
			t.Errorf("events %+v", *e.events)
		}
	})

	t.Run("stream", func(t *testing.T) {
		deltas := []string{"There ", "are ", "42 ", "orders."}
		e := setup(t, testKey, 5*time.Second, think(Answer{Text: "There are 42 orders.", Deltas: deltas, Usage: llm.Usage{Input: 12, Output: 6}}))
		var got []string
		resp, err := e.run.Complete(ctx, ask, func(d string) { got = append(got, d) })
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(deltas, got); diff != "" {
			t.Errorf("deltas (-want +got):\n%s", diff)
		}
		if resp.Text() != "There are 42 orders." || resp.Usage.Output != 6 || resp.Usage.Input != 12 {
			t.Errorf("got %q, usage %+v", resp.Text(), resp.Usage)
		}
	})

	for _, stream := range []bool{false, true} {
		name := "tool round trip"
		if stream {
			name += " streamed"
		}
		t.Run(name, func(t *testing.T) {
			call := llm.ToolUse{ID: "call_1", Name: "run_query", Input: json.RawMessage(`{"sql":"SELECT count(*) FROM orders"}`)}
			e := setup(t, testKey, 5*time.Second,
				think(Answer{Text: "Let me count.", ToolUses: []llm.ToolUse{call}, Usage: llm.Usage{Input: 20, Output: 9}}),
				think(Answer{Text: "There are 42 orders.", Usage: llm.Usage{Input: 40, Output: 7}}))
			req := ask
			req.Tools = []llm.Tool{{Name: "run_query", Description: "Run one read-only SQL query.", InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`)}}
			var onText func(string)
			if stream {
				onText = func(string) {}
			}
			resp, err := e.run.Complete(ctx, req, onText)
			if err != nil {
				t.Fatal(err)
			}
			uses := resp.ToolUses()
			if resp.StopReason != llm.StopToolUse || len(uses) != 1 || uses[0].ID != "call_1" || uses[0].Name != "run_query" {
				t.Fatalf("response %+v", resp)
			}
			var in struct{ SQL string }
			if err := json.Unmarshal(uses[0].Input, &in); err != nil || in.SQL != "SELECT count(*) FROM orders" {
				t.Fatalf("tool input %s (%v)", uses[0].Input, err)
			}
			req.Messages = append(req.Messages, resp.AssistantMessage(), llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{ToolResult: &llm.ToolResult{ToolUseID: "call_1", Content: `[{"count":42}]`}}}})
			resp, err = e.run.Complete(ctx, req, onText)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text() != "There are 42 orders." || resp.StopReason != llm.StopEnd {
				t.Errorf("final %q (%s)", resp.Text(), resp.StopReason)
			}
			second := string(e.srv.Requests()[1].Body)
			for _, want := range []string{"call_1", "run_query", `[{\"count\":42}]`, "SELECT count(*) FROM orders"} {
				if !strings.Contains(second, want) {
					t.Errorf("second request lacks %s: %s", want, second)
				}
			}
			if u := e.run.Usage(); u.Input != 60 || u.Output != 16 {
				t.Errorf("run usage %+v", u)
			}
		})
	}

	t.Run("wrong key", func(t *testing.T) {
		wrong := "sk-wrong-key-do-not-print-1234"
		e := setup(t, wrong, 5*time.Second)
		_, err := e.run.Complete(ctx, ask, nil)
		if quarry.KindOf(err) != quarry.KindModel {
			t.Fatalf("kind %s, err %v", quarry.KindOf(err), err)
		}
		msg := quarry.Message(err)
		if !strings.Contains(msg, "refused the key (401)") || !strings.Contains(msg, s.KeyHint) {
			t.Errorf("message %q", msg)
		}
		for _, text := range []string{msg, err.Error()} {
			if strings.Contains(text, wrong) || strings.Contains(text, testKey) {
				t.Errorf("the error shows a key: %q", text)
			}
		}
		if n := len(e.srv.Requests()); n != 1 {
			t.Errorf("%d requests; a 401 is not retried", n)
		}
	})

	retry := func(name string, first Answer) {
		t.Run(name, func(t *testing.T) {
			e := setup(t, testKey, 5*time.Second, first, Answer{Text: "ok", Usage: llm.Usage{Input: 1, Output: 1}})
			resp, err := e.run.Complete(ctx, ask, nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text() != "ok" || len(e.srv.Requests()) != 2 {
				t.Errorf("got %q after %d requests", resp.Text(), len(e.srv.Requests()))
			}
			evs := *e.events
			if len(evs) != 2 || evs[0].Error == "" || evs[1].Attempt != 2 || evs[1].Error != "" {
				t.Errorf("events %+v", evs)
			}
			want := []time.Duration{500 * time.Millisecond} // BaseDelay with no jitter
			if ra := first.Header["Retry-After"]; ra != "" {
				d, _ := time.ParseDuration(ra + "s")
				want = []time.Duration{d}
			}
			if diff := cmp.Diff(want, e.sleep.Waits()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
	retry("429 honours Retry-After", Answer{Status: 429, Header: map[string]string{"Retry-After": "7"}, Body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`})
	retry("529 overloaded", Answer{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`})
	retry("503", Answer{Status: 503, Body: `{"error":{"message":"unavailable","type":"server_error"}}`})

	t.Run("500 until the last attempt", func(t *testing.T) {
		fail := Answer{Status: 500, Body: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`}
		e := setup(t, testKey, 5*time.Second, fail, fail, fail, Answer{Text: "too late"})
		_, err := e.run.Complete(ctx, ask, nil)
		if quarry.KindOf(err) != quarry.KindModel || !strings.Contains(quarry.Message(err), "gave up after 3 attempts") {
			t.Fatalf("err %v", err)
		}
		if n := len(e.srv.Requests()); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
		if diff := cmp.Diff([]time.Duration{500 * time.Millisecond, time.Second}, e.sleep.Waits()); diff != "" {
			t.Errorf("waits (-want +got):\n%s", diff)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		e := setup(t, testKey, 150*time.Millisecond, Answer{Text: "never", Hang: true}, Answer{Text: "not asked"})
		_, err := e.run.Complete(ctx, ask, nil)
		if quarry.KindOf(err) != quarry.KindTimeout {
			t.Fatalf("kind %s: %v", quarry.KindOf(err), err)
		}
		if n := len(e.srv.Requests()); n != 1 {
			t.Errorf("%d requests; a timeout is not retried", n)
		}
	})

	t.Run("cancel mid-stream", func(t *testing.T) {
		e := setup(t, testKey, 5*time.Second, Answer{Text: "one two three", Hang: true, HangAfter: 1}, Answer{Text: "not asked"})
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var got []string
		_, err := e.run.Complete(ctx, ask, func(d string) { got = append(got, d); cancel() })
		if quarry.KindOf(err) != quarry.KindCanceled {
			t.Fatalf("kind %s: %v", quarry.KindOf(err), err)
		}
		if len(got) != 1 || got[0] != "one " {
			t.Errorf("deltas %q", got)
		}
		if n := len(e.srv.Requests()); n != 1 {
			t.Errorf("%d requests after cancellation", n)
		}
		if _, err := e.run.Complete(ctx, ask, nil); quarry.KindOf(err) != quarry.KindCanceled {
			t.Errorf("a call on a canceled context: %v", err)
		}
	})

	t.Run("garbage", func(t *testing.T) {
		e := setup(t, testKey, 5*time.Second, Answer{Body: `<html>this is not {json`}, Answer{Text: "not asked"})
		_, err := e.run.Complete(ctx, ask, nil)
		if quarry.KindOf(err) != quarry.KindModel || !strings.Contains(quarry.Message(err), "could not read") {
			t.Fatalf("kind %s: %v", quarry.KindOf(err), err)
		}
		var ce *llm.CallError
		if errors.As(err, &ce) && ce.Retryable {
			t.Errorf("garbage is retried")
		}
	})

	t.Run("request shape", func(t *testing.T) {
		e := setup(t, testKey, 5*time.Second, Answer{Text: "ok"})
		req := ask
		req.Tier = llm.TierCheap
		if _, err := e.run.Complete(ctx, req, nil); err != nil {
			t.Fatal(err)
		}
		if body := string(e.srv.Requests()[0].Body); !strings.Contains(body, `"`+s.Cheap+`"`) {
			t.Errorf("the cheap tier sent %s", body)
		}
		if r := e.srv.Requests()[0]; r.Method != http.MethodPost {
			t.Errorf("method %s", r.Method)
		}
	})
}
