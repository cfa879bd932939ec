package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestLoadHTTPConnection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "quarry.yaml")
	writeFile(t, path, `version: 1
connections:
  svc:
    driver: http
    url: https://sql.example/run?key=${SVC_KEY}
    dialect: PostgreSQL
    schema_url: https://sql.example/schema
    headers:
      Authorization: Bearer ${SVC_TOKEN}
      X-Client: quarry
`)
	cfg, err := Load(path, testEnv(map[string]string{"SVC_KEY": secretValue, "SVC_TOKEN": secretValue}))
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Connections["svc"]
	if c.Driver != DriverHTTP || c.Dialect() != quarry.DialectPostgres || c.URL.Value() != "https://sql.example/run?key="+secretValue {
		t.Errorf("connection = %+v", c)
	}
	if c.Headers["Authorization"].Value() != "Bearer "+secretValue || c.Headers["X-Client"].Value() != "quarry" || c.SchemaURL.Value() != "https://sql.example/schema" {
		t.Errorf("headers = %v, schema_url set %v", c.Headers, c.SchemaURL.IsSet())
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings = %v", cfg.Warnings)
	}
	for _, f := range []func() ([]byte, error){cfg.Redacted, cfg.RedactedJSON} {
		out, err := f()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), secretValue) || !strings.Contains(string(out), "Authorization") || !strings.Contains(string(out), "postgres") {
			t.Errorf("redacted config = %s", out)
		}
	}
}

func TestHTTPDefaultsAndWarnings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "quarry.yaml")
	writeFile(t, path, "version: 1\nconnections:\n  svc:\n    driver: http\n    url: http://127.0.0.1:8080/sql\n    headers:\n      X-Api-Key: literal-key\n      Accept-Language: en\n")
	cfg, err := Load(path, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.Connections["svc"].Dialect(); d != quarry.DialectGeneric {
		t.Errorf("dialect = %q, want any", d)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "headers.X-Api-Key") || strings.Contains(cfg.Warnings[0], "literal-key") {
		t.Errorf("warnings = %v, want one about X-Api-Key", cfg.Warnings)
	}
}
