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
