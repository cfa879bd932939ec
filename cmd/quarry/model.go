package main

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

// modelChoice is the language model one command uses: the builtin planner
// (Provider "builtin") or a provider's model.
type modelChoice struct {
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

// modelFor resolves --model over model: in quarry.yaml. flag is "" (the
// config's choice), "builtin", a provider ("anthropic", "openai") or
// "provider:model" ("anthropic:claude-…", "openai:gpt-…",
// "openai:llama3.1" for a local server). A provider other than the
// config's takes its key and base URL from its environment variables.
func (a *app) modelFor(cfg *config.Config, flag string) (modelChoice, error) {
	m := modelChoice{Provider: cfg.Model.Provider, Model: cfg.Model.Model, key: cfg.Model.APIKey.Value(), baseURL: cfg.Model.BaseURL,
		effort: cfg.Model.Effort, cheapEffort: cfg.Model.CheapEffort, maxTokens: cfg.Model.MaxTokens}
	flag = strings.TrimSpace(flag)
	if flag == "" {
		if m.Provider == "" {
			m.Provider = config.ProviderBuiltin
		}
		return m, m.named()
	}
	p, model, _ := strings.Cut(flag, ":")
	p = strings.ToLower(strings.TrimSpace(p))
	switch p {
	case config.ProviderBuiltin:
		if model != "" {
			return m, quarry.Errorf(quarry.KindUsage, "--model builtin takes no model name")
		}
		return modelChoice{Provider: p}, nil
	case config.ProviderAnthropic, config.ProviderOpenAI:
	default:
		return m, quarry.Errorf(quarry.KindUsage, "--model %q: use builtin, anthropic, openai, anthropic:MODEL or openai:MODEL", flag)
	}
	if p != m.Provider {
		m = modelChoice{Provider: p, effort: m.effort, cheapEffort: m.cheapEffort, maxTokens: m.maxTokens}
		vars := providerEnv[p]
		if v, ok := a.env(vars[0]); ok {
			m.key = v
		}
		if v, ok := a.env(vars[1]); ok {
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
func (m modelChoice) named() error {
	if m.Provider != config.ProviderOpenAI || m.Model != "" || m.baseURL == "" || strings.Contains(m.baseURL, "api.openai.com") {
		return nil
	}
	return quarry.Errorf(quarry.KindConfig, "no model is named for the OpenAI-compatible server at %s; set model.model in quarry.yaml (or pass --model openai:NAME) to a model it serves, e.g. qwen3:8b on Ollama", schemeHost(m.baseURL))
}

// gateway builds the model gateway of a choice; nil for the builtin planner.
func (a *app) gateway(m modelChoice) *llm.Gateway {
	var p llm.Provider
	switch m.Provider {
	case config.ProviderAnthropic:
		p = anthropic.New(anthropic.Options{APIKey: m.key, BaseURL: m.baseURL, Now: a.now})
	case config.ProviderOpenAI:
		p = openai.New(openai.Options{APIKey: m.key, BaseURL: m.baseURL, Now: a.now})
	default:
		return nil
	}
	return llm.New(llm.Config{Provider: p, Name: m.Provider, Models: llm.ResolveModels(m.Provider, m.Model, ""), MaxTokens: m.maxTokens,
		Effort: map[llm.Tier]llm.Effort{llm.TierStrong: llm.Effort(m.effort), llm.TierCheap: llm.Effort(m.cheapEffort)}})
}

// noteBuiltin says, once per project, that questions go to the builtin
// planner because no language model is configured. It writes one line to
// stderr when stderr is a terminal, and remembers that it did next to the
// state database.
func (a *app) noteBuiltin(cfg *config.Config) {
	if !a.stderrTTY() {
		return
	}
	mark := filepath.Join(filepath.Dir(cfg.State), "builtin-noted")
	if _, err := os.Stat(mark); err == nil {
		return
	}
	a.note("no language model is configured (set ANTHROPIC_API_KEY or OPENAI_API_KEY, or model.provider in quarry.yaml); using the builtin planner")
	if os.MkdirAll(filepath.Dir(mark), 0o755) == nil {
		_ = os.WriteFile(mark, nil, 0o644)
	}
}

// note writes a one-line note to stderr.
func (a *app) note(msg string) {
	a.stderr.Write([]byte("quarry: note: " + msg + "\n"))
}

// schemeHost is a URL's scheme://host, with no path, query or credentials.
func schemeHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the configured base URL"
	}
	return u.Scheme + "://" + u.Host
}
