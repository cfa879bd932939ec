package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		"model", "provider", "api_key", "base_url", "max_steps", "schema_budget", "limits", "max_rows", "preview_rows", "statement_timeout",
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

// uncomment removes prefix from the commented lines of the template's
// connections: section as a person does, from the line that starts with
// first up to the line before the one that starts with stop ("" for the
// end of the section), and from the `# connection:` line when def.
func uncomment(text, prefix, first, stop string, def bool) string {
	lines := strings.Split(text, "\n")
	in, on := false, false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "connections:"):
			in = true
			continue
		case in && l == "":
			in, on = false, false
		case in && strings.HasPrefix(l, first):
			on = true
		case in && stop != "" && strings.HasPrefix(l, stop):
			on = false
		case def && strings.HasPrefix(l, "# connection:"):
			lines[i] = strings.TrimPrefix(l, "# ")
		}
		if on {
			lines[i] = strings.TrimPrefix(l, prefix)
		}
	}
	return strings.Join(lines, "\n")
}

// TestTemplateExampleUncomments checks that the blank template's example
// connections load once their lines are uncommented, whether the editor
// removes "#" or "# ".
func TestTemplateExampleUncomments(t *testing.T) {
	text := string(Template(TemplateOptions{Project: "shop"}))
	tests := []struct {
		name, prefix, first, stop string
		def                       bool
		want                      []string // connection names
		connection                string
	}{
		{"the first example", "#", "#  mydb:", "#  warehouse:", false, []string{"mydb"}, "mydb"},
		{"with an editor's toggle", "# ", "#  mydb:", "#  warehouse:", false, []string{"mydb"}, "mydb"},
		{"every example and the default", "#", "#  mydb:", "", true, []string{"mydb", "warehouse", "shop"}, "mydb"},
		{"every example, toggled", "# ", "#  mydb:", "", true, []string{"mydb", "warehouse", "shop"}, "mydb"},
		{"the postgres example", "#", "#  warehouse:", "#  shop:", false, []string{"warehouse"}, "warehouse"},
	}
	for _, tt := range tests {
		edited := uncomment(text, tt.prefix, tt.first, tt.stop, tt.def)
		if edited == text {
			t.Fatalf("%s: nothing was uncommented", tt.name)
		}
		path := filepath.Join(t.TempDir(), FileName)
		writeFile(t, path, edited)
		cfg, err := Load(path, testEnv(nil))
		if err != nil {
			t.Errorf("%s: %v\n%s", tt.name, err, edited)
			continue
		}
		if diff := cmp.Diff(tt.want, cfg.ConnectionNames); diff != "" || cfg.Connection != tt.connection {
			t.Errorf("%s: connection %q, names (-want +got):\n%s", tt.name, cfg.Connection, diff)
		}
	}
}

// TestTemplateChannelsUncomment checks that the template's example
// channels load once uncommented, with their variables set.
func TestTemplateChannelsUncomment(t *testing.T) {
	text := string(Template(TemplateOptions{DBPath: "demo.db"}))
	i := strings.Index(text, "# channels:")
	if i < 0 {
		t.Fatal("the template has no channels example")
	}
	lines := strings.Split(text[i:], "\n")
	for j, l := range lines {
		lines[j] = strings.TrimPrefix(l, "# ")
	}
	edited := text[:i] + strings.Join(lines, "\n")
	path := filepath.Join(t.TempDir(), FileName)
	writeFile(t, path, edited)
	cfg, err := Load(path, testEnv(map[string]string{"SLACK_WEBHOOK_URL": "https://hooks.slack.com/services/x", "PAGER_TOKEN": "t", "SMTP_PASSWORD": "p"}))
	if err != nil {
		t.Fatalf("%v\n%s", err, edited)
	}
	if diff := cmp.Diff([]string{"ops-alerts", "pager", "team-mail"}, cfg.ChannelNames); diff != "" {
		t.Errorf("channels (-want +got):\n%s", diff)
	}
}
