package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestPrivacy(t *testing.T) {
	load := func(t *testing.T, conns string) (*Config, error) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "quarry.yaml")
		writeFile(t, path, "version: 1\nconnection: a\nconnections:\n"+conns)
		return Load(path, testEnv(map[string]string{"TIER": "schema-only", "EMPTY": ""}))
	}
	for _, tc := range []struct {
		name, conns string
		tier        quarry.Privacy
		k           int
		shown       string
	}{
		{"absent", "  a:\n    driver: sqlite\n    path: a.db\n", quarry.PrivacyFull, 0, ""},
		{"full", "  a:\n    driver: sqlite\n    path: a.db\n    privacy: full\n", quarry.PrivacyFull, 0, ""},
		{"schema-only", "  a:\n    driver: postgres\n    url: ${DATABASE_URL}\n    privacy: schema-only\n", quarry.PrivacySchema, 0, "privacy: schema-only"},
		{"from a variable", "  a:\n    driver: sqlite\n    path: a.db\n    privacy: ${TIER}\n", quarry.PrivacySchema, 0, "privacy: schema-only"},
		{"aggregates-only", "  a:\n    driver: mysql\n    url: ${DATABASE_URL}\n    privacy: Aggregates-Only\n", quarry.PrivacyAggregates, quarry.DefaultMinGroupSize, "min_group_size: 5"},
		{"group size", "  a:\n    driver: sqlite\n    path: a.db\n    privacy: aggregates-only\n    min_group_size: 20\n", quarry.PrivacyAggregates, 20, "min_group_size: 20"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := load(t, tc.conns)
			if err != nil {
				t.Fatal(err)
			}
			c := cfg.Connections["a"]
			if c.Privacy.Or() != tc.tier || c.MinGroupSize != tc.k {
				t.Errorf("privacy %q, min group size %d; want %q, %d", c.Privacy, c.MinGroupSize, tc.tier, tc.k)
			}
			out, err := cfg.Redacted()
			if err != nil {
				t.Fatal(err)
			}
			if tc.shown != "" && !strings.Contains(string(out), tc.shown) || tc.shown == "" && strings.Contains(string(out), "privacy") {
				t.Errorf("quarry config shows:\n%s", out)
			}
		})
	}
	for _, tc := range []struct{ name, conns, want string }{
		{"unknown tier", "  a:\n    driver: sqlite\n    path: a.db\n    privacy: schema_only\n", `connections.a.privacy: unknown privacy tier "schema_only" (did you mean "schema-only"?); write full, aggregates-only or schema-only`},
		{"group size without the tier", "  a:\n    driver: sqlite\n    path: a.db\n    min_group_size: 10\n", "connections.a.min_group_size: is only for connections with `privacy: aggregates-only`"},
		{"empty tier", "  a:\n    driver: sqlite\n    path: a.db\n    privacy: \"\"\n", `connections.a.privacy: is empty; write one of full, aggregates-only, schema-only`},
		{"no value", "  a:\n    driver: sqlite\n    path: a.db\n    privacy:\n", `connections.a.privacy: is empty; write one of full, aggregates-only, schema-only`},
		{"a variable set empty", "  a:\n    driver: sqlite\n    path: a.db\n    privacy: ${EMPTY}\n", `connections.a.privacy: is empty; write one of full, aggregates-only, schema-only`},
		{"group size of one", "  a:\n    driver: sqlite\n    path: a.db\n    privacy: aggregates-only\n    min_group_size: 1\n", "connections.a.min_group_size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.conns)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v, want one line containing %q", err, tc.want)
			}
		})
	}
}

func TestGroupRoles(t *testing.T) {
	load := func(t *testing.T, extra string) (*Config, error) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "quarry.yaml")
		writeFile(t, path, "version: 1\nconnection: a\nconnections:\n  a:\n    driver: postgres\n    url: ${DATABASE_URL}\n"+extra)
		return Load(path, testEnv(map[string]string{"DATABASE_URL": "postgres://u@h/db"}))
	}
	cfg, err := load(t, "    group_roles:\n      Support: support_ro\n      emea: emea$ro\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Connections["a"].GroupRoles; len(got) != 2 || got["support"] != "support_ro" || got["emea"] != "emea$ro" {
		t.Errorf("group roles = %v", got)
	}
	for _, tc := range []struct{ name, extra, want string }{
		{"not a role", "    group_roles:\n      support: \"x; DROP ROLE y\"\n", `connections.a.group_roles.support: "x; DROP ROLE y" is not a role name`},
		{"empty role", "    group_roles:\n      support: \"\"\n", `connections.a.group_roles.support: "" is not a role name`},
		{"bad group", "    group_roles:\n      \"no good\": r\n", `connections.a.group_roles.no good: "no good" is not a group name`},
		{"twice", "    group_roles:\n      support: r\n      SUPPORT: s\n", `given a role twice`},
		{"not postgres", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "not postgres" {
				path := filepath.Join(t.TempDir(), "quarry.yaml")
				writeFile(t, path, "version: 1\nconnection: a\nconnections:\n  a:\n    driver: sqlite\n    path: a.db\n    group_roles:\n      support: r\n")
				_, err := Load(path, testEnv(nil))
				if err == nil || !strings.Contains(err.Error(), "connections.a.group_roles: is only for `driver: postgres`") {
					t.Errorf("error = %v", err)
				}
				return
			}
			_, err := load(t, tc.extra)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v, want one line containing %q", err, tc.want)
			}
		})
	}
}
