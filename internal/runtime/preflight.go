package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
)

// preflightTimeout bounds the pre-flight round trip (two small calls).
const preflightTimeout = 2 * time.Minute

// PreflightRun sends m one tiny scripted tool round trip (llm.Preflight)
// with quarry's system prompt for this project as the context to size.
func (r *Runtime) PreflightRun(ctx context.Context, m ModelChoice, system string) ([]llm.Check, *llm.Run) {
	ctx, cancel := context.WithTimeout(ctx, preflightTimeout)
	defer cancel()
	gw := r.Gateway(m)
	run := gw.Run(llm.Budget{MaxCalls: 3}, nil)
	strong := llm.ResolveModels(m.Provider, m.Model, "").Strong
	return llm.Preflight(ctx, run, llm.PreflightOptions{Model: strong, Context: system, Measure: selfHosted(m.baseURL)}), run
}

// selfHosted reports whether a base URL names a server on this machine or
// a private network (Ollama, vLLM, llama.cpp), whose tokens cost nothing,
// so that the pre-flight may send it the whole schema context to measure
// its window.
func selfHosted(base string) bool {
	if base == "" {
		return false
	}
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") || !strings.Contains(host, ".") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}

// PromptText is the prompt quarry would send to a model for this
// project's default connection, or "" when it cannot be built.
func (r *Runtime) PromptText(ctx context.Context, cfg *config.Config) string {
	k, verified, err := r.agentKnowledge(cfg)
	if err != nil {
		return ""
	}
	ag := &agent.Agent{Knowledge: k, Verified: verified, Dialect: quarry.DialectGeneric}
	if c, _, err := r.Conn(ctx, ""); err == nil {
		if q, ok := c.(agent.Querier); ok {
			ag.Conn = q // not manual mode: the prompt a question gets
		}
		if cat, err := r.Catalog(ctx, c); err == nil {
			ag.Catalog, ag.Dialect = cat, c.Dialect()
			if ag.Withheld, err = r.WithheldViews(ctx, c, cat); err != nil {
				return ""
			}
		}
	}
	return ag.PromptText()
}

// checkModelOnce runs the pre-flight check the first time a project uses
// a model (a provider, endpoint and model it has not checked), so that a
// model that cannot do what quarry needs — no tool use, an endpoint that
// mangles thinking, a context window that cuts the schema off — is named
// with its fix before a question is spent on it. It costs under a cent on
// a paid API and is skipped when no key is set (the question then fails
// with the provider's own message).
func (r *Runtime) checkModelOnce(ctx context.Context, cfg *config.Config, m ModelChoice, ag *agent.Agent) error {
	if ag.Gateway == nil || (m.key == "" && m.baseURL == "") || r.checked(cfg, m) {
		return nil
	}
	checks, run := r.PreflightRun(ctx, m, ag.PromptText())
	if err := ctx.Err(); err != nil {
		return quarry.Wrap(quarry.KindCanceled, err, "canceled while checking the model")
	}
	name := m.Provider + " " + llm.ResolveModels(m.Provider, m.Model, "").Strong
	for _, c := range checks {
		if c.Err != nil {
			// Not a finding about the model: the question meets the
			// same failure and reports it as every model failure is.
			return nil
		}
		if !c.OK {
			return quarry.Errorf(quarry.KindConfig, "the %s model cannot do what quarry needs (%s: %s); %s — quarry doctor shows every check", name, c.Name, c.Detail, c.Fix)
		}
	}
	r.RememberChecked(cfg, m)
	if r.o.Interactive {
		r.note(fmt.Sprintf("checked %s once for this project: tool use, the thinking round trip, JSON answers and the context size work (%s)", name, llm.USD(run.Cost())))
	}
	return nil
}

// checkedFile lists the models this project has checked, in its local
// folder (localDir).
func checkedFile(cfg *config.Config) string {
	return filepath.Join(localDir(cfg), "models-checked.json")
}

// checkedEntry is one model that passed the pre-flight check.
type checkedEntry struct {
	Provider  string    `json:"provider"`
	Model     string    `json:"model"`
	BaseURL   string    `json:"base_url,omitempty"`
	CheckedAt time.Time `json:"checked_at"`
}

// endpointOf is what models-checked.json says of a base URL: its
// scheme://host, never a path, query or user:password that could carry a
// credential.
func endpointOf(base string) string {
	if base == "" {
		return ""
	}
	return schemeHost(base)
}

// checkKey names a model choice: its provider, endpoint and models (never
// its key).
func checkKey(m ModelChoice) string {
	ms := llm.ResolveModels(m.Provider, m.Model, "")
	sum := sha256.Sum256([]byte(m.Provider + "\x00" + m.baseURL + "\x00" + ms.Strong + "\x00" + ms.Cheap))
	return hex.EncodeToString(sum[:8])
}

func readChecked(cfg *config.Config) map[string]checkedEntry {
	out := map[string]checkedEntry{}
	data, err := os.ReadFile(checkedFile(cfg))
	if err == nil {
		_ = json.Unmarshal(data, &out)
	}
	return out
}

func (r *Runtime) checked(cfg *config.Config, m ModelChoice) bool {
	_, ok := readChecked(cfg)[checkKey(m)]
	return ok
}

// RememberChecked records that m passed; a failure to write only means
// the check runs again next time.
func (r *Runtime) RememberChecked(cfg *config.Config, m ModelChoice) {
	all := readChecked(cfg)
	all[checkKey(m)] = checkedEntry{Provider: m.Provider, Model: llm.ResolveModels(m.Provider, m.Model, "").Strong, BaseURL: endpointOf(m.baseURL), CheckedAt: r.o.Now().UTC()}
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return
	}
	path := checkedFile(cfg)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".models-checked-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}
