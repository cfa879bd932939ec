//go:build duckdb

package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// duckProject creates a DuckDB file with a writable session, closes it,
// and writes a quarry.yaml that points at it with driver: duckdb.
func duckProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("duckdb", filepath.Join(dir, "shop.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, amount DECIMAL(10,2), status VARCHAR)",
		"INSERT INTO orders SELECT i, i * 1.5, CASE WHEN i % 4 = 0 THEN 'refunded' ELSE 'completed' END FROM range(1, 101) t(i)",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	yaml := "version: 1\nconnections:\n  shop:\n    driver: duckdb\n    path: shop.duckdb\n"
	if err := os.WriteFile(filepath.Join(dir, "quarry.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRunDuckDB(t *testing.T) {
	dir := duckProject(t)
	r := quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT status, count(*) AS n, sum(amount) AS total FROM orders GROUP BY status ORDER BY status")
	if r.code != 0 {
		t.Fatalf("run: exit %d, stderr %s", r.code, r.stderr)
	}
	if want := "status,n,total\ncompleted,75,5625.00\nrefunded,25,1950.00\n"; r.stdout != want {
		t.Errorf("run stdout = %q, want %q", r.stdout, want)
	}
	r = quarryCmd(t, "", "-C", dir, "run", "--json", "SELECT id, amount FROM orders WHERE id = 2")
	if r.code != 0 {
		t.Fatalf("run --json: exit %d, stderr %s", r.code, r.stderr)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("run --json printed invalid JSON: %v\n%s", err, r.stdout)
	}
	if !strings.Contains(r.stdout, `[2,"3.00"]`) || !strings.Contains(r.stdout, `"db_type":"DECIMAL(10,2)"`) {
		t.Errorf("run --json = %s, want the row [2,\"3.00\"] of a DECIMAL(10,2) column", r.stdout)
	}
	// A write is refused (by the guard first) and the file is unchanged.
	r = quarryCmd(t, "", "-C", dir, "run", "DELETE FROM orders")
	if r.code == 0 {
		t.Errorf("run DELETE succeeded: %s", r.stdout)
	}
	r = quarryCmd(t, "", "-C", dir, "run", "--format", "csv", "SELECT count(*) AS n FROM orders")
	if r.code != 0 || r.stdout != "n\n100\n" {
		t.Errorf("count after the refused DELETE: exit %d, %q, %s", r.code, r.stdout, r.stderr)
	}
}
