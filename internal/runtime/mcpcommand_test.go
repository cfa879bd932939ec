package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestMCPCommandResolution(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(bin, "sql-server")
	if err := os.WriteFile(server, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := New(Options{Env: func(k string) (string, bool) {
		if k == "PATH" {
			return "/nonexistent:" + bin, true
		}
		return "", false
	}})
	cfg := &config.Config{Path: filepath.Join(dir, "quarry.yaml"), Dir: dir}
	self, _ := os.Executable()
	self, _ = filepath.EvalSymlinks(self)
	for command, want := range map[string]string{"quarry": self, "sql-server": server, "bin/sql-server": server, server: server} {
		got, err := r.mcpCommand(cfg, &config.Connection{Name: "shop", Command: command})
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", command, got, err, want)
		}
	}
	for _, command := range []string{"no-such-server", "bin/nope", "./bin"} {
		_, err := r.mcpCommand(cfg, &config.Connection{Name: "shop", Command: command})
		if quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(err.Error(), `"shop"`) || !strings.Contains(err.Error(), command) {
			t.Errorf("%s: err = %v, want a config error naming the command and the connection", command, err)
		}
	}
}
