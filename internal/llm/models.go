package llm

// This file is the one place that names concrete models and what they
// accept. Change a default here and nowhere else; prices.go prices them.
// Checked against the providers' model pages on 2026-12-01 (see prices.go).

// Provider names, as config spells them.
const (
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
)

// Models is the model each tier uses.
type Models struct {
	Strong string // planning: the tool loop that writes SQL
	Cheap  string // classification, JSON repair, summaries
}

// For returns the model of tier t (TierStrong for the zero Tier).
func (m Models) For(t Tier) string {
	if t == TierCheap && m.Cheap != "" {
		return m.Cheap
	}
	return m.Strong
}

// defaultModels are each provider's default models.
func defaultModels(provider string) Models {
	switch provider {
	case ProviderAnthropic:
		return Models{Strong: "claude-sonnet-5-5", Cheap: "claude-haiku-5-5"}
	case ProviderOpenAI:
		// GPT-6 Sol, not 6.1: on chat completions 6.1 Sol calls no tools.
		return Models{Strong: "gpt-6-sol", Cheap: "gpt-6-luna"}
	}
	return Models{}
}

// ResolveModels returns the models of provider given config: model (the
// configured model name, "" for the default) serves the strong tier, and
// cheap ("" for none) overrides the cheap tier.
//
// With no cheap override, the cheap tier is the provider's default cheap
// model, except when an OpenAI-compatible provider is given a model by name:
// the endpoint may be a local server (Ollama, vLLM, llama.cpp, LM Studio)
// that knows no other model, so both tiers use the named one.
func ResolveModels(provider, model, cheap string) Models {
	m := defaultModels(provider)
	if model != "" {
		m.Strong = model
		if provider != ProviderAnthropic {
			m.Cheap = model
		}
	}
	if cheap != "" {
		m.Cheap = cheap
	}
	if m.Cheap == "" {
		m.Cheap = m.Strong
	}
	return m
}

// DefaultModels returns every provider's default models, for tests that
// check each has a price.
func DefaultModels() []string {
	var out []string
	for _, p := range []string{ProviderAnthropic, ProviderOpenAI} {
		m := defaultModels(p)
		out = append(out, m.Strong, m.Cheap)
	}
	return out
}

// Thinking is what a model accepts about thinking, where it differs from
// the current rules. The zero value is today's Anthropic rule for a model
// quarry does not know: adaptive thinking on by default, output_config.effort
// accepted, and thinking that cannot be turned off.
type Thinking struct {
	// Legacy models predate effort and adaptive thinking: quarry sends
	// neither, and they do not think unless asked.
	Legacy bool
	// Off is how thinking is turned off: "disabled" (thinking.type), or
	// "between_tools" (thinking only between tool calls); "" where it
	// cannot be, so that EffortOff becomes EffortLow.
	Off string
	// NoNone: an OpenAI reasoning model that refuses reasoning_effort
	// "none" (and "minimal"); EffortOff becomes "low".
	NoNone bool
}

// ThinkingOf returns what model accepts. From the providers' pages: Claude
// Opus 5.5 and Fable 5.1 always think ("thinking can't be disabled");
// Sonnet 5.5 turns up-front thinking off with between_tools; Haiku 5.5 can
// turn it off; GPT-6.1 Sol accepts no effort below low.
func ThinkingOf(model string) Thinking {
	switch model {
	case "claude-haiku-5-5":
		return Thinking{Off: "disabled"}
	case "claude-sonnet-5-5":
		return Thinking{Off: "between_tools"}
	case "claude-opus-5-5", "claude-fable-5-1":
		return Thinking{}
	case "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5":
		return Thinking{Legacy: true}
	case "gpt-6.1-sol", "gpt-6-astra":
		return Thinking{NoNone: true}
	}
	return Thinking{}
}

// ContextWindow returns model's context window in tokens, from the
// providers' model pages (checked 2026-12-01); 0 when quarry does not know
// it (a local model: Preflight then measures what the endpoint reads).
func ContextWindow(model string) int {
	switch model {
	case "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5", "claude-fable-5-1", "claude-sonnet-4-5":
		return 1_000_000
	case "claude-haiku-4-5", "claude-opus-4-5":
		return 200_000
	}
	return 0
}
