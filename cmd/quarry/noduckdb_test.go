//go:build !duckdb

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Without the duckdb tag a DuckDB connection is a usage error that says
// how to build quarry with DuckDB.
func TestRunDuckDBNotBuilt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "shop.duckdb"), []byte("not opened"), 0o644)
	yaml := "version: 1\nconnections:\n  shop:\n    driver: duckdb\n    path: shop.duckdb\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r := quarryCmd(t, "", "-C", dir, "run", "SELECT 1")
	if r.code != quarry.ExitUsage || !strings.Contains(r.stderr, "-tags duckdb") {
		t.Errorf("run on a DuckDB connection without the tag: exit %d, stderr %q; want %d and a hint to build with -tags duckdb", r.code, r.stderr, quarry.ExitUsage)
	}
}
