package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestTemplateLoads(t *testing.T) {
	tests := []struct {
		opts       TemplateOptions
		project    string
		connection string
	}{
		{TemplateOptions{Project: "demo", DBPath: "demo.db"}, "demo", "demo"},
		{TemplateOptions{}, "quarry", ""},
		{TemplateOptions{Project: "true", DBPath: "data/my shop.db"}, "true", "demo"},
		{TemplateOptions{Project: `a "quoted" $name: #1`, DBPath: "1.0"}, `a "quoted" $name: #1`, "demo"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		path := filepath.Join(dir, FileName)
		writeFile(t, path, string(Template(tt.opts)))
		// Keys in the environment must not make the template fail.
		cfg, err := Load(path, testEnv(map[string]string{"ANTHROPIC_API_KEY": "k"}))
		if err != nil {
			t.Fatalf("%+v: %v\n%s", tt.opts, err, Template(tt.opts))
		}
		if cfg.Project != tt.project || cfg.Connection != tt.connection || len(cfg.Warnings) != 0 {
			t.Errorf("%+v: project %q connection %q warnings %q", tt.opts, cfg.Project, cfg.Connection, cfg.Warnings)
		}
		if tt.opts.DBPath != "" {
			if got := cfg.Connections["demo"].Path; got != filepath.Join(dir, tt.opts.DBPath) {
				t.Errorf("path = %q", got)
			}
		}
		if cfg.Model.Provider != ProviderAnthropic || cfg.Limits.MaxRows != DefaultMaxRows ||
			cfg.Limits.StatementTimeout != DefaultStatementTimeout || cfg.Limits.CacheTTL != DefaultCacheTTL ||
			cfg.Limits.MaxValueBytes != DefaultMaxValueBytes || cfg.Limits.MaxResultBytes != DefaultMaxResultBytes || cfg.Server != DefaultServer() {
			t.Errorf("%+v: template values differ from the defaults: %+v %+v", tt.opts, cfg.Model, cfg.Limits)
		}
	}
}

// TestTemplateExplainsEveryField checks that each field Load knows is
// written, with a comment, in the template.
func TestTemplateExplainsEveryField(t *testing.T) {
	text := string(Template(TemplateOptions{DBPath: "demo.db"}))
	lines := strings.Split(text, "\n")
	for _, f := range []string{"version", "project", "connection", "connections", "driver", "path", "knowledge", "state",
		"model", "provider", "api_key", "base_url", "limits", "max_rows", "preview_rows", "statement_timeout",
		"max_statement_bytes", "max_cost", "max_estimated_rows", "cache_ttl", "repair_attempts", "max_value_bytes", "max_result_bytes", "server", "read_timeout", "idle_timeout",
		"max_header_bytes", "max_sessions", "session_idle_timeout", "guard", "extra_functions"} {
		found := false
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), f+":") {
				found = true
				if i == 0 || !strings.HasPrefix(strings.TrimSpace(lines[i-1]), "#") && f != "max_estimated_rows" {
					t.Errorf("%s has no comment above it", f)
				}
				break
			}
		}
		if !found {
			t.Errorf("%s is not in the template", f)
		}
	}
}
