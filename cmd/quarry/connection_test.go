package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConnectionFlagWithoutDefault checks that --connection NAME works in
// a project with two connections and no default, and that a command that
// names none is told to, rather than falling back to manual mode.
func TestConnectionFlagWithoutDefault(t *testing.T) {
	dir := project(t)
	yaml := "version: 1\nconnections:\n  shop:\n    driver: sqlite\n    path: shop.db\n  copy:\n    driver: sqlite\n    path: shop.db\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r := quarryCmd(t, "", "-C", dir, "run", "--connection", "copy", "--format", "csv", "SELECT count(*) AS n FROM customers")
	if diff := cmp.Diff(result{0, "n\n3\n", ""}, r, cmp.AllowUnexported(result{})); diff != "" {
		t.Errorf("run --connection copy (-want +got):\n%s", diff)
	}
	if r := quarryCmd(t, "", "-C", dir, "learn", "--connection", "copy"); r.code != 0 {
		t.Fatalf("learn --connection copy: exit %d\n%s", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"run", "SELECT 1"},
		{"learn"},
		{"ask", "how many customers"},
	} {
		r := quarryCmd(t, "", append([]string{"-C", dir}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "and no default; name one with --connection shop") {
			t.Errorf("%s without --connection: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
		oneLineError(t, r)
	}
}
