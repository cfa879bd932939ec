package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestApproval(t *testing.T) {
	load := func(t *testing.T, conns string) (*Config, error) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "quarry.yaml")
		writeFile(t, path, "version: 1\nconnection: a\nconnections:\n"+conns)
		return Load(path, testEnv(nil))
	}
	for _, tc := range []struct {
		name, conns string
		on          bool
		timeout     time.Duration
		shown       string
	}{
		{"absent", "  a:\n    driver: sqlite\n    path: a.db\n", false, 0, ""},
		{"off", "  a:\n    driver: sqlite\n    path: a.db\n    approval: off\n", false, 0, ""},
		{"required", "  a:\n    driver: sqlite\n    path: a.db\n    approval: Required\n", true, 0, "approval: required"},
		{"timeout", "  a:\n    driver: sqlite\n    path: a.db\n    approval: required\n    approval_timeout: 10m\n", true, 10 * time.Minute, "approval_timeout: 10m0s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := load(t, tc.conns)
			if err != nil {
				t.Fatal(err)
			}
			c := cfg.Connections["a"]
			if c.Approval != tc.on || c.ApprovalTimeout != tc.timeout {
				t.Errorf("approval %v, timeout %v; want %v, %v", c.Approval, c.ApprovalTimeout, tc.on, tc.timeout)
			}
			out, err := cfg.Redacted()
			if err != nil {
				t.Fatal(err)
			}
			if tc.shown != "" && !strings.Contains(string(out), tc.shown) || tc.shown == "" && strings.Contains(string(out), "approval") {
				t.Errorf("quarry config shows:\n%s", out)
			}
		})
	}
	for _, tc := range []struct{ name, conns, want string }{
		{"unknown mode", "  a:\n    driver: sqlite\n    path: a.db\n    approval: always\n", `connections.a.approval: unknown approval mode "always"; write required or off`},
		{"empty", "  a:\n    driver: sqlite\n    path: a.db\n    approval: \"\"\n", "connections.a.approval: is empty"},
		{"timeout without the mode", "  a:\n    driver: sqlite\n    path: a.db\n    approval_timeout: 5m\n", "connections.a.approval_timeout: is only for connections with `approval: required`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.conns)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v, want one line containing %q", err, tc.want)
			}
		})
	}
}
