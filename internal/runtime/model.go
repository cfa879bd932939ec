package runtime

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/llm/anthropic"
	"github.com/quarrydata/quarry/internal/llm/openai"
	"github.com/quarrydata/quarry/internal/quarry"
)

// ModelChoice is the language model one request uses: the builtin planner
// (Provider "builtin") or a provider's model.
type ModelChoice struct {
	Provider string // builtin, anthropic, openai
	Model    string // "" for the provider's default
	key      string
	baseURL  string
	// effort, cheapEffort and maxTokens come from model: in quarry.yaml.
	effort, cheapEffort string
	maxTokens           int
}

// providerEnv names each provider's environment variables.
var providerEnv = map[string][2]string{
	config.ProviderAnthropic: {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"},
	config.ProviderOpenAI:    {"OPENAI_API_KEY", "OPENAI_BASE_URL"},
}

// ModelFor resolves --model over model: in quarry.yaml. flag is "" (the
// config's choice), "builtin", a provider ("anthropic", "openai") or
// "provider:model" ("anthropic:claude-…", "openai:gpt-…",
// "openai:llama3.1" for a local server). A provider other than the
// config's takes its key and base URL from its environment variables.
func (r *Runtime) ModelFor(cfg *config.Config, flag string) (ModelChoice, error) {
	m := ModelChoice{Provider: cfg.Model.Provider, Model: cfg.Model.Model, key: cfg.Model.APIKey.Value(), baseURL: cfg.Model.BaseURL,
		effort: cfg.Model.Effort, cheapEffort: cfg.Model.CheapEffort, maxTokens: cfg.Model.MaxTokens}
	flag = strings.TrimSpace(flag)
	if flag == "" {
		if m.Provider == "" {
			m.Provider = config.ProviderBuiltin
		}
		return m, m.named()
	}
	p, model, named := strings.Cut(flag, ":")
	p = strings.ToLower(strings.TrimSpace(p))
	if named && strings.TrimSpace(model) == "" {
		return m, quarry.Errorf(quarry.KindUsage, "--model %q names no model after the colon; write %s:MODEL, or %s for its default", flag, p, p)
	}
	switch p {
	case config.ProviderBuiltin:
		if model != "" {
			return m, quarry.Errorf(quarry.KindUsage, "--model builtin takes no model name")
		}
		return ModelChoice{Provider: p}, nil
	case config.ProviderAnthropic, config.ProviderOpenAI:
	default:
		return m, quarry.Errorf(quarry.KindUsage, "--model %q: use builtin, anthropic, openai, anthropic:MODEL or openai:MODEL", flag)
	}
	if p != m.Provider {
		m = ModelChoice{Provider: p, effort: m.effort, cheapEffort: m.cheapEffort, maxTokens: m.maxTokens}
		vars := providerEnv[p]
		if v, ok := r.o.Env(vars[0]); ok {
			m.key = v
		}
		if v, ok := r.o.Env(vars[1]); ok {
			m.baseURL = v
		}
	}
	if model = strings.TrimSpace(model); model != "" {
		m.Model = model
	}
	return m, m.named()
}

// named refuses an OpenAI-compatible server other than OpenAI's own with
// no model named: quarry's default model is OpenAI's, which a local server
// does not serve.
func (m ModelChoice) named() error {
	if m.Provider != config.ProviderOpenAI || m.Model != "" || m.baseURL == "" || strings.Contains(m.baseURL, "api.openai.com") {
		return nil
	}
	return quarry.Errorf(quarry.KindConfig, "no model is named for the OpenAI-compatible server at %s; set model.model in quarry.yaml (or pass --model openai:NAME) to a model it serves, e.g. qwen3:8b on Ollama", schemeHost(m.baseURL))
}

// Gateway builds the model gateway of a choice; nil for the builtin planner.
func (r *Runtime) Gateway(m ModelChoice) *llm.Gateway {
	var p llm.Provider
	switch m.Provider {
	case config.ProviderAnthropic:
		p = anthropic.New(anthropic.Options{APIKey: m.key, BaseURL: m.baseURL, Now: r.o.Now})
	case config.ProviderOpenAI:
		p = openai.New(openai.Options{APIKey: m.key, BaseURL: m.baseURL, Now: r.o.Now})
	default:
		return nil
	}
	return llm.New(llm.Config{Provider: p, Name: m.Provider, Models: llm.ResolveModels(m.Provider, m.Model, ""), MaxTokens: m.maxTokens,
		Effort: map[llm.Tier]llm.Effort{llm.TierStrong: llm.Effort(m.effort), llm.TierCheap: llm.Effort(m.cheapEffort)}})
}

// NoteBuiltin says, once per project, that questions go to the builtin
// planner because no language model is configured. It writes one line to
// stderr when stderr is a terminal, and remembers that it did next to the
// state database.
func (r *Runtime) NoteBuiltin(cfg *config.Config) {
	if !r.o.Interactive {
		return
	}
	mark := filepath.Join(localDir(cfg), "builtin-noted")
	if _, err := os.Stat(mark); err == nil {
		return
	}
	r.note("no language model is configured (set ANTHROPIC_API_KEY or OPENAI_API_KEY, or model.provider in quarry.yaml); using the builtin planner")
	if os.MkdirAll(filepath.Dir(mark), 0o755) == nil {
		_ = os.WriteFile(mark, nil, 0o644)
	}
}

// schemeHost is a URL's scheme://host, with no path, query or credentials.
func schemeHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the configured base URL"
	}
	return u.Scheme + "://" + u.Host
}

// HasEndpoint reports whether the choice has a key or a base URL: without
// either, a provider cannot be called.
func (m ModelChoice) HasEndpoint() bool { return m.key != "" || m.baseURL != "" }

// KeyVar names the environment variable of a provider's API key.
func KeyVar(provider string) string { return providerEnv[provider][0] }
