package llm

// This file is the one place that names concrete models. Change a default
// here and nowhere else; prices.go prices them.

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
		return Models{Strong: "gpt-5.1", Cheap: "gpt-5-mini"}
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
