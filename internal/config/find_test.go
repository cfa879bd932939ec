package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

func TestFind(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "proj", FileName)
	writeFile(t, cfg, "version: 1\n")
	deep := filepath.Join(root, "proj", "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// A folder named quarry.yaml is not a config file.
	if err := os.MkdirAll(filepath.Join(root, "proj", "a", FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(deep, "q.sql"), "select 1")
	for _, start := range []string{filepath.Join(root, "proj"), deep, filepath.Join(deep, "q.sql")} {
		got, err := Find(start)
		if err != nil || got != cfg {
			t.Errorf("Find(%s) = %q, %v; want %s", start, got, err, cfg)
		}
	}
	other := filepath.Join(root, "elsewhere")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), FileName)); err == nil {
		t.Skip("a quarry.yaml exists above the temporary folder")
	}
	_, err := Find(other)
	if err == nil || quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(err.Error(), "run `quarry init`") {
		t.Errorf("Find without a config: %v", err)
	}
}
