package llm

// This file is the one price table. Prices are integer micro-US-dollars per
// million tokens (so $3.00 per million tokens is 3_000_000), taken from the
// providers' published price lists; update them here when those change.

// Price is what a model charges per million tokens, in micro-USD.
type Price struct {
	Input      int64 // uncached input tokens
	Output     int64 // output tokens
	CacheRead  int64 // input tokens read from the prompt cache
	CacheWrite int64 // input tokens written to the prompt cache
}

// PriceOf returns model's price and whether it is known. A model that is
// not known (a local model, a new model) costs 0: its calls are counted, not
// priced.
func PriceOf(model string) (Price, bool) {
	switch model {
	// Anthropic: cache reads cost a tenth of input, cache writes (5-minute
	// TTL) a quarter more than input.
	case "claude-opus-5-5":
		return Price{Input: 5_000_000, Output: 25_000_000, CacheRead: 500_000, CacheWrite: 6_250_000}, true
	case "claude-sonnet-5-5":
		return Price{Input: 3_000_000, Output: 15_000_000, CacheRead: 300_000, CacheWrite: 3_750_000}, true
	case "claude-haiku-5-5":
		return Price{Input: 1_000_000, Output: 5_000_000, CacheRead: 100_000, CacheWrite: 1_250_000}, true
	case "claude-sonnet-4-5":
		return Price{Input: 3_000_000, Output: 15_000_000, CacheRead: 300_000, CacheWrite: 3_750_000}, true
	case "claude-haiku-4-5":
		return Price{Input: 1_000_000, Output: 5_000_000, CacheRead: 100_000, CacheWrite: 1_250_000}, true
	case "claude-opus-4-5":
		return Price{Input: 5_000_000, Output: 25_000_000, CacheRead: 500_000, CacheWrite: 6_250_000}, true
	// OpenAI: cached input is billed at the cache-read price; there is no
	// separate charge for writing the cache.
	case "gpt-5.1":
		return Price{Input: 1_250_000, Output: 10_000_000, CacheRead: 125_000}, true
	case "gpt-5":
		return Price{Input: 1_250_000, Output: 10_000_000, CacheRead: 125_000}, true
	case "gpt-5-mini":
		return Price{Input: 250_000, Output: 2_000_000, CacheRead: 25_000}, true
	case "gpt-5-nano":
		return Price{Input: 50_000, Output: 400_000, CacheRead: 5_000}, true
	case "gpt-4.1":
		return Price{Input: 2_000_000, Output: 8_000_000, CacheRead: 500_000}, true
	case "gpt-4.1-mini":
		return Price{Input: 400_000, Output: 1_600_000, CacheRead: 100_000}, true
	}
	return Price{}, false
}

// Cost returns what u costs at price p, in micro-USD, rounded up to the next
// whole micro-dollar so that a call that used tokens never costs 0.
func (p Price) Cost(u Usage) int64 {
	n := int64(u.Input)*p.Input + int64(u.Output)*p.Output + int64(u.CacheRead)*p.CacheRead + int64(u.CacheWrite)*p.CacheWrite
	return (n + 999_999) / 1_000_000
}
