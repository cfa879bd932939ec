package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

func TestSecretForms(t *testing.T) {
	s := NewSecret(secretValue)
	empty := Secret{}
	if !s.IsSet() || empty.IsSet() || s.Value() != secretValue {
		t.Fatalf("IsSet/Value wrong")
	}
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("x", "key", s)
	j, _ := json.Marshal(s)
	y, _ := yaml.Marshal(map[string]Secret{"k": s})
	txt, _ := s.MarshalText()
	forms := map[string]string{
		"%v": fmt.Sprintf("%v", s), "%+v": fmt.Sprintf("%+v", s), "%#v": fmt.Sprintf("%#v", s),
		"%s": fmt.Sprintf("%s", s), "%q": fmt.Sprintf("%q", s), "%x": fmt.Sprintf("%x", s),
		"%d": fmt.Sprintf("%d", s), "String": s.String(), "GoString": s.GoString(),
		"json": string(j), "yaml": string(y), "text": string(txt), "slog": logged.String(),
		"ptr": fmt.Sprintf("%v", &s),
	}
	for name, got := range forms {
		if strings.Contains(got, secretValue) || !strings.Contains(got, "[redacted]") {
			t.Errorf("%s = %q", name, got)
		}
	}
	if got := fmt.Sprintf("%v|%s|%#v", empty, empty, empty); got != "||" {
		t.Errorf("empty secret prints %q", got)
	}
	if j, _ := json.Marshal(empty); string(j) != `""` {
		t.Errorf("empty secret json %s", j)
	}
}

// TestConfigNeverShowsSecrets prints a loaded Config every way a program
// might and searches the output for the secrets.
func TestConfigNeverShowsSecrets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	writeFile(t, path, "version: 1\nconnections:\n  wh:\n    driver: postgres\n    url: ${DATABASE_URL}\nmodel:\n  api_key: ${KEY}\n")
	writeFile(t, filepath.Join(dir, DotEnvName), "KEY=sk-"+secretValue+"\n")
	cfg, err := Load(path, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Model.APIKey.IsSet() || !cfg.Connections["wh"].URL.IsSet() {
		t.Fatal("secrets were not loaded")
	}
	red, err := cfg.Redacted()
	if err != nil {
		t.Fatal(err)
	}
	redJSON, err := cfg.RedactedJSON()
	if err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	conn := cfg.Connections["wh"]
	forms := map[string]string{
		"Redacted": string(red), "RedactedJSON": string(redJSON), "json": string(j), "yaml": string(y),
		"%v": fmt.Sprintf("%v", cfg), "%+v": fmt.Sprintf("%+v", *cfg), "%#v": fmt.Sprintf("%#v", *cfg),
		"conn %+v": fmt.Sprintf("%+v", *conn), "conn %#v": fmt.Sprintf("%#v", conn),
		"model %+v": fmt.Sprintf("%+v", cfg.Model), "model %#v": fmt.Sprintf("%#v", cfg.Model),
		"conns %v": fmt.Sprintf("%v", cfg.Connections),
	}
	for name, got := range forms {
		if strings.Contains(got, secretValue) {
			t.Errorf("%s reveals a secret: %s", name, got)
		}
	}
	for _, name := range []string{"Redacted", "RedactedJSON", "json", "conn %+v", "model %#v"} {
		if !strings.Contains(forms[name], "[redacted]") {
			t.Errorf("%s does not show [redacted]: %s", name, forms[name])
		}
	}
}
