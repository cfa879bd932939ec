package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestAllowPrivilegedRole(t *testing.T) {
	load := func(t *testing.T, conns string) (*Config, error) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "quarry.yaml")
		writeFile(t, path, "version: 1\nconnection: a\nconnections:\n"+conns)
		return Load(path, testEnv(map[string]string{"ALLOW": "true"}))
	}
	for _, tc := range []struct {
		name, conns string
		want        bool
	}{
		{"absent", "  a:\n    driver: postgres\n    url: ${DATABASE_URL}\n", false},
		{"true", "  a:\n    driver: postgres\n    url: ${DATABASE_URL}\n    allow_privileged_role: true\n", true},
		{"false", "  a:\n    driver: mysql\n    url: ${DATABASE_URL}\n    allow_privileged_role: false\n", false},
		{"from a variable", "  a:\n    driver: mysql\n    url: ${DATABASE_URL}\n    allow_privileged_role: ${ALLOW}\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := load(t, tc.conns)
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Connections["a"].AllowPrivilegedRole; got != tc.want {
				t.Errorf("AllowPrivilegedRole = %v, want %v", got, tc.want)
			}
			out, err := cfg.Redacted()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), "allow_privileged_role: true") != tc.want {
				t.Errorf("quarry config shows:\n%s", out)
			}
		})
	}
	for _, tc := range []struct{ name, conns, want string }{
		{"sqlite", "  a:\n    driver: sqlite\n    path: a.db\n    allow_privileged_role: true\n", "connections.a.allow_privileged_role"},
		{"not a boolean", "  a:\n    driver: postgres\n    url: ${DATABASE_URL}\n    allow_privileged_role: sometimes\n", "expected true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.conns)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
