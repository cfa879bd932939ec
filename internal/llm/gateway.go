package llm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Config configures a Gateway. Only Provider and Name are required.
type Config struct {
	Provider Provider
	Name     string // the provider's name for events: "anthropic", "openai"
	Models   Models // see ResolveModels; an empty tier is an error at call time
	// Effort is each tier's thinking effort (nil or a missing tier for
	// DefaultEffort); a Request's own Effort wins.
	Effort map[Tier]Effort
	// MaxTokens bounds each reply, thinking included, when a Request does
	// not say (0 for DefaultMaxTokens).
	MaxTokens int

	// MaxAttempts bounds the tries of one call, the first included
	// (0 for DefaultMaxAttempts; 1 turns retries off).
	MaxAttempts int
	// BaseDelay is the first retry's delay before jitter, doubled for each
	// further retry up to MaxDelay (0s for the defaults below).
	BaseDelay, MaxDelay time.Duration
	// CallTimeout bounds each attempt (0 for DefaultCallTimeout; negative
	// for none).
	CallTimeout time.Duration

	// Now, Sleep and Jitter are the clock, the sleeper and the randomness
	// of retries; nil for the real ones. Sleep must return ctx.Err() when
	// ctx ends first. Jitter returns a number in [0, 1).
	Now    func() time.Time
	Sleep  func(ctx context.Context, d time.Duration) error
	Jitter func() float64
}

// Retry and timeout defaults.
const (
	DefaultMaxAttempts = 4
	DefaultBaseDelay   = 1 * time.Second
	DefaultMaxDelay    = 30 * time.Second
	DefaultCallTimeout = 3 * time.Minute
	// MaxRetryAfter caps how long a server's Retry-After can make a call
	// wait; a longer ask fails the call instead.
	MaxRetryAfter = 2 * time.Minute
)

// Gateway sends requests to one provider's models. It holds no per-run
// state and is safe for concurrent use; each run meters its calls through
// its own Run.
type Gateway struct {
	cfg Config
}

// New returns a Gateway for cfg, with defaults filled in.
func New(cfg Config) *Gateway {
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.BaseDelay <= 0 {
		cfg.BaseDelay = DefaultBaseDelay
	}
	if cfg.MaxDelay <= 0 {
		cfg.MaxDelay = DefaultMaxDelay
	}
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Jitter == nil {
		cfg.Jitter = rand.Float64
	}
	return &Gateway{cfg: cfg}
}

// Models returns the gateway's models.
func (g *Gateway) Models() Models { return g.cfg.Models }

// ProviderName returns the name the gateway records in events.
func (g *Gateway) ProviderName() string { return g.cfg.Name }

// Budget bounds a run's model calls. Zero fields are unbounded. A model with
// no known price costs 0, so only MaxCalls bounds it.
type Budget struct {
	MaxMicroUSD int64
	MaxCalls    int
}

// Run meters one run's calls: its budget, its cost and its events. It is
// safe for concurrent use.
type Run struct {
	g      *Gateway
	budget Budget
	emit   func(*event.ModelCalledData)

	mu    sync.Mutex
	cost  int64
	calls int
	usage Usage
}

// Run starts metering a run. emit receives one event per attempt, as soon as
// the attempt ends (nil to drop them).
func (g *Gateway) Run(b Budget, emit func(*event.ModelCalledData)) *Run {
	if emit == nil {
		emit = func(*event.ModelCalledData) {}
	}
	return &Run{g: g, budget: b, emit: emit}
}

// Cost returns the run's cost so far in micro-USD.
func (r *Run) Cost() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cost
}

// Calls returns how many calls the run has made (a retried call counts once).
func (r *Run) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// Usage returns the run's token totals.
func (r *Run) Usage() Usage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.usage
}

// Complete sends req to its tier's model, retrying transient failures, and
// returns the response. It refuses with a KindModel error once the run's
// budget is spent. When onText is not nil the answer is streamed to it; a
// call that failed after text reached onText is not retried, so that no
// delta is delivered twice.
//
// A reply that stopped at its token limit is returned with a KindModel
// error (MaxTokensError) that names the setting to raise; its cost is
// counted. A conversation that ends with an assistant turn (a prefill) is
// refused before anything is sent.
func (r *Run) Complete(ctx context.Context, req Request, onText func(string)) (*Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, canceled(err)
	}
	cfg := r.g.cfg
	tier := req.Tier
	if tier == "" {
		tier = TierStrong
	}
	req.Tier = tier
	model := cfg.Models.For(tier)
	if model == "" {
		return nil, quarry.Errorf(quarry.KindConfig, "no %s model is configured for %s; set model.model in quarry.yaml or pass --model", tier, cfg.Name)
	}
	if req.MaxTokens <= 0 {
		req.MaxTokens = cfg.MaxTokens
		if req.MaxTokens <= 0 {
			req.MaxTokens = DefaultMaxTokens
		}
	}
	if req.Effort == EffortDefault {
		req.Effort = cfg.Effort[tier]
		if req.Effort == EffortDefault {
			req.Effort = DefaultEffort(tier)
		}
	}
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == RoleAssistant {
		return nil, quarry.Errorf(quarry.KindInternal, "quarry was about to send a conversation that ends with an assistant turn (a prefill), which current models reject; please report it")
	}
	if err := r.reserve(); err != nil {
		return nil, err
	}
	price, _ := PriceOf(model)

	var lastErr error
	made := 0
	for attempt := 1; attempt <= cfg.MaxAttempts; attempt++ {
		streamed := false
		sink := onText
		if onText != nil {
			sink = func(s string) {
				streamed = true
				onText(s)
			}
		}
		start := cfg.Now()
		made = attempt
		resp, err := r.attempt(ctx, model, req, sink)
		ev := &event.ModelCalledData{
			Provider:   cfg.Name,
			Model:      model,
			Tier:       string(tier),
			DurationMS: float64(cfg.Now().Sub(start).Microseconds()) / 1000,
			Attempt:    attempt,
		}
		if err == nil {
			u := resp.Usage
			c := price.Cost(u)
			ev.InputTokens, ev.OutputTokens = int64(u.Input), int64(u.Output)
			ev.CacheReadTokens, ev.CacheWriteTokens = int64(u.CacheRead), int64(u.CacheWrite)
			ev.CostMicroUSD = c
			r.mu.Lock()
			r.cost += c
			r.usage = r.usage.Add(u)
			r.mu.Unlock()
			r.emit(ev)
			if resp.Model == "" {
				resp.Model = model
			}
			if resp.StopReason == StopMaxTokens {
				return resp, MaxTokensError(cfg.Name, model, req.MaxTokens)
			}
			return resp, nil
		}
		ev.Error = quarry.Message(err)
		r.emit(ev)
		lastErr = err

		var ce *CallError
		if !errors.As(err, &ce) || !ce.Retryable || streamed || ctx.Err() != nil || attempt == cfg.MaxAttempts {
			break
		}
		wait := r.g.backoff(attempt)
		if ce.RetryAfter > MaxRetryAfter {
			break
		}
		wait = max(wait, ce.RetryAfter)
		if err := cfg.Sleep(ctx, wait); err != nil {
			return nil, canceled(err)
		}
	}
	if ctx.Err() != nil && quarry.KindOf(lastErr) != quarry.KindTimeout {
		return nil, canceled(ctx.Err())
	}
	var ce *CallError
	if errors.As(lastErr, &ce) && ce.Retryable && made > 1 {
		return nil, quarry.Wrap(quarry.KindOf(lastErr), lastErr, "%s (gave up after %d attempts)", quarry.Message(lastErr), made)
	}
	return nil, lastErr
}

// attempt makes one try within the per-call timeout.
func (r *Run) attempt(ctx context.Context, model string, req Request, onText func(string)) (*Response, error) {
	if t := r.g.cfg.CallTimeout; t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, t, errCallTimeout)
		defer cancel()
	}
	resp, err := r.g.cfg.Provider.Complete(ctx, model, req, onText)
	if err != nil {
		if context.Cause(ctx) == errCallTimeout {
			return nil, quarry.Wrap(quarry.KindTimeout, err, "the %s model %s did not answer within %s; try again, or raise the model call timeout", r.g.cfg.Name, model, r.g.cfg.CallTimeout)
		}
		var qe *quarry.Error
		if !errors.As(err, &qe) {
			err = quarry.Wrap(quarry.KindModel, err, "the %s model %s failed: %s", r.g.cfg.Name, model, oneLine(err.Error(), 160))
		}
		return nil, err
	}
	if resp == nil {
		return nil, quarry.Errorf(quarry.KindModel, "the %s model %s returned no response", r.g.cfg.Name, model)
	}
	return resp, nil
}

var errCallTimeout = errors.New("model call timeout")

// MaxTokensError is the error of a reply that stopped at its token limit.
// Thinking counts toward the limit, so a model can stop there before it
// writes anything.
func MaxTokensError(provider, model string, limit int) error {
	return quarry.Errorf(quarry.KindModel, "the %s model %s stopped at its output limit (%d tokens, thinking included) before it finished; raise model.max_tokens or lower model.effort in quarry.yaml, or ask a narrower question", provider, model, limit)
}

// DefaultEffort is a tier's effort when configuration does not say: the
// strong tier plans and thinks at medium effort; the cheap tier classifies
// and repairs, and thinks little.
func DefaultEffort(t Tier) Effort {
	if t == TierCheap {
		return EffortLow
	}
	return EffortMedium
}

// reserve counts a call against the budget, or refuses it.
func (r *Run) reserve() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.budget
	if b.MaxCalls > 0 && r.calls >= b.MaxCalls {
		return quarry.Errorf(quarry.KindModel, "the run's model budget is spent: %d of %d calls made; ask a narrower question or raise the run's call limit", r.calls, b.MaxCalls)
	}
	if b.MaxMicroUSD > 0 && r.cost >= b.MaxMicroUSD {
		return quarry.Errorf(quarry.KindModel, "the run's model budget is spent: %s of %s used; ask a narrower question or raise the run's cost limit", USD(r.cost), USD(b.MaxMicroUSD))
	}
	r.calls++
	return nil
}

// backoff returns the delay before retry number attempt (1 for the first
// retry): BaseDelay doubled per retry, capped at MaxDelay, with "equal
// jitter" (half fixed, half random) so that many clients do not retry in
// step.
func (g *Gateway) backoff(attempt int) time.Duration {
	d := g.cfg.BaseDelay
	for i := 1; i < attempt && d < g.cfg.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, g.cfg.MaxDelay)
	half := d / 2
	return half + time.Duration(g.cfg.Jitter()*float64(half))
}

// USD formats micro-USD as dollars: 1234567 → "$1.234567".
func USD(micro int64) string {
	sign := ""
	if micro < 0 {
		sign, micro = "-", -micro
	}
	return fmt.Sprintf("%s$%d.%06d", sign, micro/1_000_000, micro%1_000_000)
}

func canceled(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return quarry.Wrap(quarry.KindTimeout, err, "the model call ran out of time")
	}
	return quarry.Wrap(quarry.KindCanceled, err, "the model call was canceled")
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
