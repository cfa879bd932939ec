package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/llmtest"
	"github.com/quarrydata/quarry/internal/quarry"
)

// providerFunc adapts a function to llm.Provider.
type providerFunc func(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error)

func (f providerFunc) Complete(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
	return f(ctx, model, req, onText)
}

func gateway(p llm.Provider, sl *llmtest.Sleeper, models llm.Models) *llm.Gateway {
	t0 := time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)
	return llm.New(llm.Config{
		Provider: p, Name: "anthropic", Models: models, MaxAttempts: 3,
		Sleep: sl.Sleep, Jitter: func() float64 { return 0.5 },
		Now: func() time.Time { return t0 },
	})
}

func retryable(status int, after time.Duration) error {
	return quarry.Wrap(quarry.KindModel, &llm.CallError{Status: status, RetryAfter: after, Retryable: true}, "busy (%d)", status)
}

var ask = llm.Request{Messages: []llm.Message{llm.UserText("hi")}}

func TestTierRouting(t *testing.T) {
	fake := llmtest.NewProvider(llmtest.Reply(llmtest.Text("a")), llmtest.Reply(llmtest.Text("b")), llmtest.Reply(llmtest.Text("c")))
	run := gateway(fake, &llmtest.Sleeper{}, llm.Models{Strong: "big", Cheap: "small"}).Run(llm.Budget{}, nil)
	for _, tier := range []llm.Tier{"", llm.TierStrong, llm.TierCheap} {
		req := ask
		req.Tier = tier
		if _, err := run.Complete(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, c := range fake.Calls() {
		got = append(got, c.Model)
	}
	if diff := cmp.Diff([]string{"big", "big", "small"}, got); diff != "" {
		t.Errorf("models (-want +got):\n%s", diff)
	}
	if fake.Calls()[0].Request.MaxTokens != llm.DefaultMaxTokens {
		t.Errorf("max tokens %d", fake.Calls()[0].Request.MaxTokens)
	}
}

func TestResolveModels(t *testing.T) {
	for _, c := range []struct {
		provider, model, cheap string
		want                   llm.Models
	}{
		{"anthropic", "", "", llm.Models{Strong: "claude-sonnet-5-5", Cheap: "claude-haiku-5-5"}},
		{"anthropic", "claude-opus-5-5", "", llm.Models{Strong: "claude-opus-5-5", Cheap: "claude-haiku-5-5"}},
		{"openai", "", "", llm.Models{Strong: "gpt-6-sol", Cheap: "gpt-6-luna"}},
		{"openai", "llama3.1:8b", "", llm.Models{Strong: "llama3.1:8b", Cheap: "llama3.1:8b"}},
		{"openai", "qwen3:32b", "qwen3:4b", llm.Models{Strong: "qwen3:32b", Cheap: "qwen3:4b"}},
	} {
		if got := llm.ResolveModels(c.provider, c.model, c.cheap); got != c.want {
			t.Errorf("ResolveModels(%q, %q, %q) = %+v, want %+v", c.provider, c.model, c.cheap, got, c.want)
		}
	}
}

func TestCostIsExact(t *testing.T) {
	u := llm.Usage{Input: 1000, Output: 500, CacheRead: 10_000, CacheWrite: 2000}
	resp := &llm.Response{Parts: []llm.Part{{Text: "x"}}, StopReason: llm.StopEnd, Usage: u}
	fake := llmtest.NewProvider(llmtest.Reply(resp), llmtest.Reply(resp), llmtest.Reply(resp))
	var evs []*event.ModelCalledData
	run := gateway(fake, &llmtest.Sleeper{}, llm.ResolveModels("anthropic", "", "")).Run(llm.Budget{}, func(e *event.ModelCalledData) { evs = append(evs, e) })
	for range 2 {
		if _, err := run.Complete(context.Background(), ask, nil); err != nil {
			t.Fatal(err)
		}
	}
	cheap := ask
	cheap.Tier = llm.TierCheap
	if _, err := run.Complete(context.Background(), cheap, nil); err != nil {
		t.Fatal(err)
	}
	// sonnet 5.5: 1000×2   + 500×10  + 10000×0.20 + 2000×2.50  = 14000 µ$;
	// haiku 5.5:  1000×0.1 + 500×0.5 + 10000×0.01 + 2000×0.125 = 700 µ$.
	want := []*event.ModelCalledData{
		{Provider: "anthropic", Model: "claude-sonnet-5-5", Tier: "strong", InputTokens: 1000, OutputTokens: 500, CacheReadTokens: 10_000, CacheWriteTokens: 2000, CostMicroUSD: 14_000, Attempt: 1},
		{Provider: "anthropic", Model: "claude-sonnet-5-5", Tier: "strong", InputTokens: 1000, OutputTokens: 500, CacheReadTokens: 10_000, CacheWriteTokens: 2000, CostMicroUSD: 14_000, Attempt: 1},
		{Provider: "anthropic", Model: "claude-haiku-5-5", Tier: "cheap", InputTokens: 1000, OutputTokens: 500, CacheReadTokens: 10_000, CacheWriteTokens: 2000, CostMicroUSD: 700, Attempt: 1},
	}
	if diff := cmp.Diff(want, evs); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if run.Cost() != 28_700 || run.Calls() != 3 || run.Usage() != (llm.Usage{Input: 3000, Output: 1500, CacheRead: 30_000, CacheWrite: 6000}) {
		t.Errorf("cost %d, calls %d, usage %+v", run.Cost(), run.Calls(), run.Usage())
	}
	// Rounding is up, to the micro-dollar: one haiku 5.5 cache-read token
	// is 0.01 µ$ → 1.
	p, _ := llm.PriceOf("claude-haiku-5-5")
	if c := p.Cost(llm.Usage{CacheRead: 1}); c != 1 {
		t.Errorf("one cache-read token costs %d", c)
	}
	if c := p.Cost(llm.Usage{}); c != 0 {
		t.Errorf("nothing costs %d", c)
	}
	if llm.USD(21_000) != "$0.021000" {
		t.Errorf("USD = %s", llm.USD(21_000))
	}
}

func TestBudget(t *testing.T) {
	resp := &llm.Response{Parts: []llm.Part{{Text: "x"}}, Usage: llm.Usage{Input: 1000, Output: 500}} // 7000 µ$ on sonnet 5.5
	steps := []llmtest.Step{llmtest.Reply(resp), llmtest.Reply(resp), llmtest.Reply(resp), llmtest.Reply(resp)}
	for _, c := range []struct {
		name   string
		budget llm.Budget
		calls  int
		msg    string
	}{
		{"calls", llm.Budget{MaxCalls: 2}, 2, "2 of 2 calls"},
		{"cost", llm.Budget{MaxMicroUSD: 14_000}, 2, "$0.014000 of $0.014000"},
	} {
		fake := llmtest.NewProvider(steps...)
		run := gateway(fake, &llmtest.Sleeper{}, llm.ResolveModels("anthropic", "", "")).Run(c.budget, nil)
		var err error
		n := 0
		for ; n < 4; n++ {
			if _, err = run.Complete(context.Background(), ask, nil); err != nil {
				break
			}
		}
		if n != c.calls || quarry.KindOf(err) != quarry.KindModel || !strings.Contains(quarry.Message(err), "budget is spent") || !strings.Contains(quarry.Message(err), c.msg) {
			t.Errorf("%s: %d calls, then %v", c.name, n, err)
		}
		if len(fake.Calls()) != c.calls {
			t.Errorf("%s: the provider saw %d calls", c.name, len(fake.Calls()))
		}
	}
}

func TestRetries(t *testing.T) {
	t.Run("Retry-After and backoff", func(t *testing.T) {
		sl := &llmtest.Sleeper{}
		fake := llmtest.NewProvider(llmtest.Fail(retryable(429, 7*time.Second)), llmtest.Fail(retryable(529, 0)), llmtest.Reply(llmtest.Text("ok")))
		var evs []*event.ModelCalledData
		run := gateway(fake, sl, llm.Models{Strong: "m"}).Run(llm.Budget{MaxCalls: 1}, func(e *event.ModelCalledData) { evs = append(evs, e) })
		if _, err := run.Complete(context.Background(), ask, nil); err != nil {
			t.Fatal(err)
		}
		// Jitter 0.5: the second retry waits 2s × (½ + ½×½) = 1.5s.
		if diff := cmp.Diff([]time.Duration{7 * time.Second, 1500 * time.Millisecond}, sl.Waits()); diff != "" {
			t.Errorf("waits (-want +got):\n%s", diff)
		}
		if len(evs) != 3 || evs[0].Error != "busy (429)" || evs[1].Attempt != 2 || evs[2].Attempt != 3 || evs[2].Error != "" || run.Calls() != 1 {
			t.Errorf("events %+v, calls %d", evs, run.Calls())
		}
	})
	t.Run("max attempts", func(t *testing.T) {
		fake := llmtest.NewProvider(llmtest.Fail(retryable(500, 0)), llmtest.Fail(retryable(500, 0)), llmtest.Fail(retryable(500, 0)), llmtest.Reply(llmtest.Text("late")))
		_, err := gateway(fake, &llmtest.Sleeper{}, llm.Models{Strong: "m"}).Run(llm.Budget{}, nil).Complete(context.Background(), ask, nil)
		if !strings.Contains(quarry.Message(err), "busy (500) (gave up after 3 attempts)") || len(fake.Calls()) != 3 {
			t.Errorf("err %v after %d calls", err, len(fake.Calls()))
		}
	})
	t.Run("not retryable", func(t *testing.T) {
		fake := llmtest.NewProvider(llmtest.Fail(quarry.Errorf(quarry.KindModel, "refused")), llmtest.Reply(llmtest.Text("no")))
		_, err := gateway(fake, &llmtest.Sleeper{}, llm.Models{Strong: "m"}).Run(llm.Budget{}, nil).Complete(context.Background(), ask, nil)
		if quarry.Message(err) != "refused" || len(fake.Calls()) != 1 {
			t.Errorf("err %v after %d calls", err, len(fake.Calls()))
		}
	})
	t.Run("Retry-After too long", func(t *testing.T) {
		fake := llmtest.NewProvider(llmtest.Fail(retryable(429, time.Hour)), llmtest.Reply(llmtest.Text("no")))
		_, err := gateway(fake, &llmtest.Sleeper{}, llm.Models{Strong: "m"}).Run(llm.Budget{}, nil).Complete(context.Background(), ask, nil)
		if err == nil || len(fake.Calls()) != 1 {
			t.Errorf("err %v after %d calls", err, len(fake.Calls()))
		}
	})
	t.Run("no retry once text streamed", func(t *testing.T) {
		calls := 0
		p := providerFunc(func(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
			calls++
			onText("partial ")
			return nil, retryable(529, 0)
		})
		_, err := gateway(p, &llmtest.Sleeper{}, llm.Models{Strong: "m"}).Run(llm.Budget{}, nil).Complete(context.Background(), ask, func(string) {})
		if err == nil || calls != 1 {
			t.Errorf("err %v after %d calls", err, calls)
		}
	})
	t.Run("never after ctx is done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		p := providerFunc(func(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
			calls++
			cancel()
			return nil, retryable(503, 0)
		})
		_, err := gateway(p, &llmtest.Sleeper{}, llm.Models{Strong: "m"}).Run(llm.Budget{}, nil).Complete(ctx, ask, nil)
		if quarry.KindOf(err) != quarry.KindCanceled || calls != 1 {
			t.Errorf("err %v (%s) after %d calls", err, quarry.KindOf(err), calls)
		}
		if _, err := gateway(p, &llmtest.Sleeper{}, llm.Models{Strong: "m"}).Run(llm.Budget{}, nil).Complete(ctx, ask, nil); quarry.KindOf(err) != quarry.KindCanceled || calls != 1 {
			t.Errorf("a call on a done context: %v", err)
		}
	})
	t.Run("call timeout", func(t *testing.T) {
		p := providerFunc(func(ctx context.Context, model string, req llm.Request, onText func(string)) (*llm.Response, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		g := llm.New(llm.Config{Provider: p, Name: "openai", Models: llm.Models{Strong: "m"}, CallTimeout: 20 * time.Millisecond})
		_, err := g.Run(llm.Budget{}, nil).Complete(context.Background(), ask, nil)
		if quarry.KindOf(err) != quarry.KindTimeout || !strings.Contains(quarry.Message(err), "did not answer within 20ms") {
			t.Errorf("err %v (%s)", err, quarry.KindOf(err))
		}
	})
	t.Run("no model", func(t *testing.T) {
		_, err := gateway(llmtest.NewProvider(), &llmtest.Sleeper{}, llm.Models{}).Run(llm.Budget{}, nil).Complete(context.Background(), ask, nil)
		if quarry.KindOf(err) != quarry.KindConfig {
			t.Errorf("err %v", err)
		}
	})
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		h    map[string]string
		want time.Duration
	}{
		{map[string]string{"Retry-After": "3"}, 3 * time.Second},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "250"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After": "Tue, 30 Jun 2026 09:00:10 GMT"}, 10 * time.Second},
		{map[string]string{"Retry-After": "soon"}, 0},
		{nil, 0},
	} {
		h := map[string][]string{}
		for k, v := range c.h {
			h[k] = []string{v}
		}
		if got := llm.RetryAfter(h, now); got != c.want {
			t.Errorf("%v: %s, want %s", c.h, got, c.want)
		}
	}
}

func TestTransportErrors(t *testing.T) {
	ep := llm.Endpoint{Name: "the X API", KeyHint: "X_KEY"}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if k := quarry.KindOf(ep.TransportError(ctx, errors.New("boom"), "")); k != quarry.KindCanceled {
		t.Errorf("canceled ctx: %s", k)
	}
	err := ep.StatusError(401, 0, "m", "bad key sk-abcdefgh", errors.New("401 sk-abcdefgh"), "sk-abcdefgh")
	if strings.Contains(err.Error(), "sk-abcdefgh") || !strings.Contains(err.Error(), "check X_KEY") {
		t.Errorf("401: %v", err)
	}
	err = ep.StatusError(400, 0, "m", "max_tokens too large for sk-abcdefgh", errors.New("400"), "sk-abcdefgh")
	if strings.Contains(err.Error(), "sk-abcdefgh") || !strings.Contains(err.Error(), "max_tokens too large") {
		t.Errorf("400: %v", err)
	}
}
