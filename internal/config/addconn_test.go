package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAddConnection checks that a connection added to quarry.yaml loads,
// keeps the file's comments, and leaves the default connection as it was.
func TestAddConnection(t *testing.T) {
	pg := NewConnection{Name: "shop", Driver: DriverPostgres, URLVar: "DATABASE_URL"}
	env := testEnv(map[string]string{"DATABASE_URL": "postgres://u:p@h/db"})
	tests := []struct {
		name       string
		text       string
		add        NewConnection
		names      []string
		connection string
	}{
		{"a new project", string(Template(TemplateOptions{})), pg, []string{"shop"}, "shop"},
		{"no connections: at all", "version: 1\n", NewConnection{Name: "data", Driver: DriverSQLite, Path: "my data.db"}, []string{"data"}, "data"},
		{"a second one keeps the default", "version: 1\n# the databases\nconnections:\n    old:\n        driver: sqlite\n        path: old.db\n",
			NewConnection{Name: "shop", Driver: DriverPostgres, URLVar: "DATABASE_URL", Default: "old"}, []string{"shop", "old"}, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddConnection([]byte(tt.text), tt.add)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := Parse(got, filepath.Join(t.TempDir(), FileName), env)
			if err != nil {
				t.Fatalf("%v\n%s", err, got)
			}
			if diff := cmp.Diff(tt.names, cfg.ConnectionNames); diff != "" || cfg.Connection != tt.connection {
				t.Errorf("connections (-want +got):\n%s\ndefault %q, want %q\n%s", diff, cfg.Connection, tt.connection, got)
			}
			for _, l := range strings.Split(tt.text, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "#") && !strings.Contains(string(got), l) {
					t.Errorf("the comment %q was lost", l)
				}
			}
			if tt.add.URLVar != "" && len(cfg.Warnings) != 0 {
				t.Errorf("warnings: %q", cfg.Warnings)
			}
		})
	}
	if _, err := AddConnection([]byte("version: 1\nconnections: {}\n"), pg); err == nil {
		t.Error("a flow-style connections: was rewritten")
	}
}

// TestDotEnvLineReadsBack checks that every value written to .env reads
// back as it was.
func TestDotEnvLineReadsBack(t *testing.T) {
	for _, v := range []string{"postgres://u:p@h:5432/db?sslmode=require", "p#w d", `it's "q" \ $HOME ${X}`, "two\nlines", ""} {
		got, err := ParseDotEnv([]byte("# x\n" + DotEnvLine("K", v)))
		if err != nil || got["K"] != v {
			t.Errorf("%q: read back %q, %v", v, got["K"], err)
		}
	}
}
