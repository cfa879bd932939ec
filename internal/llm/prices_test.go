package llm_test

import (
	"testing"

	"github.com/quarrydata/quarry/internal/llm"
)

// TestDefaultModelsArePriced: every default model has a price, so no
// default run costs an unexplained 0.
func TestDefaultModelsArePriced(t *testing.T) {
	for _, m := range llm.DefaultModels() {
		if p, ok := llm.PriceOf(m); !ok || p.Input == 0 || p.Output == 0 {
			t.Errorf("default model %s has no price", m)
		}
	}
	if llm.PricesChecked == "" {
		t.Error("prices.go does not say when it was checked")
	}
}

// TestLongPromptPrice: Haiku 5.5 prices a call whose prompt is over
// 100,000 tokens at the higher rates, on all its tokens; thinking is
// output and priced as output.
func TestLongPromptPrice(t *testing.T) {
	p, _ := llm.PriceOf("claude-haiku-5-5")
	// 100,000 input + 1,000 output (thinking included): 10,000 + 500 µ$.
	if c := p.Cost(llm.Usage{Input: 100_000, Output: 1000}); c != 10_500 {
		t.Errorf("at the threshold: %d", c)
	}
	// 90,000 input + 20,000 cache reads: over; 45,000 + 1,000 + 2,500 µ$.
	if c := p.Cost(llm.Usage{Input: 90_000, CacheRead: 20_000, Output: 1000}); c != 48_500 {
		t.Errorf("over the threshold: %d", c)
	}
}
