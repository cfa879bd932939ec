package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSelfCommand(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "src", "quarry")
	bin := filepath.Join(root, "bin")
	for _, d := range []string{filepath.Join(repo, "bin"), bin, filepath.Join(root, "my dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) string {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	built := write(filepath.Join(repo, "quarry")) // go build -o quarry ./cmd/quarry
	nested := write(filepath.Join(repo, "bin", "quarry"))
	installed := write(filepath.Join(bin, "quarry"))
	spaced := write(filepath.Join(root, "my dir", "quarry"))
	tests := []struct {
		name, exe, wd string
		path          []string
		want          string
	}{
		{"built in the checkout, run there", built, repo, nil, "./quarry"},
		{"a bin folder of the checkout", nested, repo, nil, "./bin/quarry"},
		{"run from a folder beside it", built, filepath.Join(root, "src", "other"), nil, "../quarry/quarry"},
		{"far away", built, filepath.Join(root, "a", "b"), nil, built},
		{"on PATH", installed, repo, []string{"relative", "", bin}, "quarry"},
		{"another quarry on PATH", built, filepath.Join(root, "a", "b"), []string{bin}, built},
		{"a path that needs quotes", spaced, filepath.Join(root, "x", "y"), nil, "'" + spaced + "'"},
		{"go run", "/tmp/go-build1234/b001/exe/quarry", repo, nil, "quarry"},
	}
	for _, tt := range tests {
		if got := selfCommand(tt.exe, tt.wd, tt.path); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestInitNextStepWorks checks that the next step init prints names the
// program that ran (not a quarry that may not be on PATH) and the folder
// it created.
func TestInitNextStepWorks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my project")
	r := quarryCmd(t, "", "init", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	want := "Next: add your database with " + selfCommand(exe, wd, nil) + " -C '" + dir + "' learn --url URL"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("stdout %q, want it to end with %q", r.stdout, want)
	}
}
