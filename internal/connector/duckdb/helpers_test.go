//go:build duckdb

package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
)

// writeFixture runs stmts on path with a writable DuckDB session, which
// it closes again so that the read-only connector can open the file.
func writeFixture(t testing.TB, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("setup %q: %v", s, err)
		}
	}
	if _, err := db.Exec("CHECKPOINT"); err != nil {
		t.Fatalf("CHECKPOINT: %v", err)
	}
}

// fixture creates a small database and opens it with the connector.
func fixture(t *testing.T) (*Conn, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.duckdb")
	writeFixture(t, path,
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, amount DECIMAL(10,2), placed DATE)",
		"INSERT INTO orders SELECT i, i * 1.5, DATE '2024-01-01' + i::INTEGER FROM range(1, 1001) t(i)",
		"CREATE TABLE nums (n INTEGER)",
		"INSERT INTO nums SELECT i FROM range(1, 11) t(i)",
	)
	c, err := Open(context.Background(), path, Options{Name: "shop"})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, path
}

// snapshot lists the files of dir with their sizes and modification times.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %s", p, fi.Size(), fi.ModTime()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func collect(ctx context.Context, c connector.Conn, sql string, opts connector.QueryOptions) error {
	_, err := connectortest.TryCollect(ctx, c, sql, opts)
	return err
}
