package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestLoadMCPCommandConnection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "quarry.yaml")
	writeFile(t, path, `version: 1
connections:
  shop:
    driver: mcp
    command: quarry
    args: [connector, sqlite, demo.db]
    env:
      DATABASE_URL: ${DATABASE_URL}
      PGAPPNAME: quarry
    tool: run_query
    sql_argument: sql
    arguments: { database: main }
    dialect: SQLite
    start_timeout: 2m
`)
	cfg, err := Load(path, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Connections["shop"]
	if c.Driver != DriverMCP || c.Dialect() != quarry.DialectSQLite || c.Command != "quarry" || c.Tool != "run_query" || c.SQLArgument != "sql" || c.StartTimeout != 2*time.Minute {
		t.Errorf("connection = %+v", c)
	}
	if diff := cmp.Diff([]string{"connector", "sqlite", "demo.db"}, c.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"database": "main"}, c.Arguments); diff != "" {
		t.Errorf("arguments (-want +got):\n%s", diff)
	}
	if c.Env["DATABASE_URL"].Value() != "postgres://reader:"+secretValue+"@db.example/shop" || c.Env["PGAPPNAME"].Value() != "quarry" || c.URL.IsSet() || c.Path != "" {
		t.Errorf("env = %v, url set %v, path %q", c.Env, c.URL.IsSet(), c.Path)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings = %v", cfg.Warnings)
	}
	for _, f := range []func() ([]byte, error){cfg.Redacted, cfg.RedactedJSON} {
		out, err := f()
		if err != nil {
			t.Fatal(err)
		}
		s := string(out)
		if strings.Contains(s, secretValue) || !strings.Contains(s, "DATABASE_URL") || !strings.Contains(s, "[redacted]") || !strings.Contains(s, "run_query") || !strings.Contains(s, "connector") || strings.Contains(s, "\n    url:") || strings.Contains(s, `"url"`) {
			t.Errorf("redacted config = %s", out)
		}
	}
}

func TestLoadMCPURLConnection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "quarry.yaml")
	writeFile(t, path, "version: 1\nconnections:\n  shop:\n    driver: mcp\n    url: http://127.0.0.1:8931/mcp\n    headers:\n      Authorization: Bearer ${MCP_TOKEN}\n    evn: {}\n")
	if _, err := Load(path, testEnv(map[string]string{"MCP_TOKEN": secretValue})); err == nil || !strings.Contains(err.Error(), `did you mean "env"?`) {
		t.Errorf("err = %v, want a did-you-mean for env", err)
	}
	writeFile(t, path, "version: 1\nconnections:\n  shop:\n    driver: mcp\n    url: http://127.0.0.1:8931/mcp\n    headers:\n      Authorization: Bearer ${MCP_TOKEN}\n    max_bytes: 1048576\n")
	cfg, err := Load(path, testEnv(map[string]string{"MCP_TOKEN": secretValue}))
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Connections["shop"]
	if c.Dialect() != quarry.DialectGeneric || c.URL.Value() != "http://127.0.0.1:8931/mcp" || c.Headers["Authorization"].Value() != "Bearer "+secretValue || c.Command != "" || c.MaxBytes != 1<<20 {
		t.Errorf("connection = %+v", c)
	}
	out, err := cfg.Redacted()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), secretValue) || !strings.Contains(string(out), "Authorization") {
		t.Errorf("redacted = %s", out)
	}
}

func TestMCPLiteralSecretInEnvWarns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "quarry.yaml")
	writeFile(t, path, "version: 1\nconnections:\n  shop:\n    driver: mcp\n    command: my-server\n    env:\n      API_TOKEN: literal-token\n")
	cfg, err := Load(path, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "env.API_TOKEN") || strings.Contains(cfg.Warnings[0], "literal-token") {
		t.Errorf("warnings = %v, want one about env.API_TOKEN", cfg.Warnings)
	}
}
