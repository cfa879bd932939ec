package event

// ModelCalled is the type of the event that records one attempt at a call to
// a language model.
const ModelCalled Type = "model.called"

// ModelCalledData records one attempt at a call to a language model: which
// model, for which tier, the tokens it used and what they cost. A call that
// was retried records one event per attempt; a failed attempt carries Error
// and usually no tokens. Costs are integer micro-US-dollars, so that a run's
// cost is an exact sum.
type ModelCalledData struct {
	Provider         string  `json:"provider"`
	Model            string  `json:"model"`
	Tier             string  `json:"tier,omitempty"` // "strong" or "cheap"
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	CacheReadTokens  int64   `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64   `json:"cache_write_tokens,omitempty"`
	CostMicroUSD     int64   `json:"cost_micro_usd"`
	DurationMS       float64 `json:"duration_ms"`
	Attempt          int     `json:"attempt"` // 1 for the first try
	Error            string  `json:"error,omitempty"`
}

// EventType implements Payload.
func (*ModelCalledData) EventType() Type { return ModelCalled }
