package llm

// This file is the one price table. Prices are integer micro-US-dollars per
// million tokens (so $3.00 per million tokens is 3_000_000), taken from the
// providers' published price lists; update them here when those change, and
// the date below with them.
//
// Checked 2026-12-01 (read that day from stored copies of the pages) against:
//   - Anthropic: the model pages platform.claude.com/docs/…/models/opus-5-5,
//     sonnet-5-5 and haiku-5-5 /overview, and about-claude/pricing (Fable
//     5.1, Opus 5, Sonnet 5, the 4.5 models). Cache writes are the 5-minute
//     writes quarry uses. Haiku 5.5 is priced by prompt length: a request
//     whose prompt (input, cache reads and writes) is over 100,000 tokens
//     pays the higher rates on all its tokens.
//   - OpenAI: the GPT-6.1 Sol, GPT-6 Sol and GPT-6 Luna prices as
//     third-party listings (LiteLLM's model list, gateway price pages) give
//     them: OpenAI's own price page was not among the stored pages, so
//     confirm these there (standard tier, prompts up to 272,000 tokens;
//     OpenAI bills longer prompts higher, which quarry does not model).
//     Older models keep the prices they were published at.
//
// Thinking and reasoning tokens are billed as output; both providers count
// them in the output tokens they report, so they are priced and counted
// against the run's budget with the rest of the output.
const PricesChecked = "2026-12-01"

// Price is what a model charges per million tokens, in micro-USD.
type Price struct {
	Input      int64 // uncached input tokens
	Output     int64 // output tokens, thinking included
	CacheRead  int64 // input tokens read from the prompt cache
	CacheWrite int64 // input tokens written to the prompt cache
	// LongPrompt, when Long is set, is the prompt size (input, cache reads
	// and cache writes) above which a call pays Long's rates on all of its
	// tokens.
	LongPrompt int
	Long       *Price
}

// PriceOf returns model's price and whether it is known. A model that is
// not known (a local model, a new model) costs 0: its calls are counted, not
// priced.
func PriceOf(model string) (Price, bool) {
	switch model {
	// Anthropic, current lineup.
	case "claude-fable-5-1":
		return Price{Input: 10_000_000, Output: 50_000_000, CacheRead: 250_000, CacheWrite: 12_500_000}, true
	case "claude-opus-5-5":
		return Price{Input: 4_000_000, Output: 20_000_000, CacheRead: 200_000, CacheWrite: 5_000_000}, true
	case "claude-sonnet-5-5":
		return Price{Input: 2_000_000, Output: 10_000_000, CacheRead: 200_000, CacheWrite: 2_500_000}, true
	case "claude-haiku-5-5":
		return Price{Input: 100_000, Output: 500_000, CacheRead: 10_000, CacheWrite: 125_000,
			LongPrompt: 100_000, Long: &Price{Input: 500_000, Output: 2_500_000, CacheRead: 50_000, CacheWrite: 625_000}}, true
	// Anthropic, legacy.
	case "claude-opus-5":
		return Price{Input: 5_000_000, Output: 25_000_000, CacheRead: 500_000, CacheWrite: 6_250_000}, true
	case "claude-sonnet-5":
		return Price{Input: 2_000_000, Output: 10_000_000, CacheRead: 200_000, CacheWrite: 2_500_000}, true
	case "claude-sonnet-4-5":
		return Price{Input: 3_000_000, Output: 15_000_000, CacheRead: 300_000, CacheWrite: 3_750_000}, true
	case "claude-haiku-4-5":
		return Price{Input: 1_000_000, Output: 5_000_000, CacheRead: 100_000, CacheWrite: 1_250_000}, true
	case "claude-opus-4-5":
		return Price{Input: 5_000_000, Output: 25_000_000, CacheRead: 500_000, CacheWrite: 6_250_000}, true
	// OpenAI: cached input is billed at the cache-read price. Chat
	// completions report no cache writes, so none are priced.
	case "gpt-6.1-sol":
		return Price{Input: 2_000_000, Output: 10_000_000, CacheRead: 100_000}, true
	case "gpt-6-sol":
		return Price{Input: 2_000_000, Output: 10_000_000, CacheRead: 200_000}, true
	case "gpt-6-luna":
		return Price{Input: 100_000, Output: 500_000, CacheRead: 10_000}, true
	case "gpt-5.1", "gpt-5":
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
	if p.Long != nil && u.Input+u.CacheRead+u.CacheWrite > p.LongPrompt {
		p = *p.Long
	}
	n := int64(u.Input)*p.Input + int64(u.Output)*p.Output + int64(u.CacheRead)*p.CacheRead + int64(u.CacheWrite)*p.CacheWrite
	return (n + 999_999) / 1_000_000
}
