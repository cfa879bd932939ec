// Package goldentest is quarry's one golden-file helper: tests compare
// their output with files under testdata, and `go test ./pkg -update`
// rewrites those files from the output instead (review the diff before
// committing it). Every package with golden files uses this -update flag;
// none defines its own.
package goldentest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata from the test output")

// Update reports whether the test run was asked to rewrite golden files,
// for tests that write other kinds of expected output.
func Update() bool { return *update }

// Assert compares got with the golden file at path. With -update it writes
// got there instead, creating the folder.
func Assert(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs from the output (-golden +got); if the change is right, run go test -update and review it:\n%s", path, d)
	}
}

// AssertString is Assert for text.
func AssertString(t testing.TB, path, got string) {
	t.Helper()
	Assert(t, path, []byte(got))
}
