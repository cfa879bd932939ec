//go:build duckdb

package duckdb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.duckdb")
	os.WriteFile(empty, nil, 0o644)
	text := filepath.Join(dir, "notes.duckdb")
	os.WriteFile(text, []byte("these are not the bytes of a database"), 0o644)
	hash := filepath.Join(dir, "a#b.duckdb")
	writeFixture(t, hash, "CREATE TABLE t (x INTEGER)")
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.duckdb"), "does not exist"},
		{"", "no DuckDB database path"},
		{dir, "is a directory"},
		{empty, "is empty"},
		{text, "not a DuckDB database"},
		{hash, "cannot open safely"},
	} {
		c, err := Open(context.Background(), tc.path, Options{})
		if err == nil {
			c.Close()
			t.Errorf("Open(%q) succeeded", tc.path)
			continue
		}
		if quarry.KindOf(err) != quarry.KindConnection || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%q) = %v (kind %s), want a connection error containing %q", tc.path, err, quarry.KindOf(err), tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.duckdb")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open created the missing file (stat: %v)", err)
	}
	if _, err := Open(context.Background(), filepath.Join(dir, "x.duckdb"), Options{MemoryLimit: "lots"}); err == nil {
		t.Errorf("Open with memory limit %q succeeded", "lots")
	}
}

// TestWritesRefused sends statements straight to Query with no guard in
// front: every one must be refused, and the file must not change.
func TestWritesRefused(t *testing.T) {
	c, path := fixture(t)
	dir := filepath.Dir(path)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	out := filepath.Join(dir, "out.csv")
	for _, sql := range []string{
		"DELETE FROM nums",
		"UPDATE nums SET n = n + 1",
		"INSERT INTO nums VALUES (11)",
		"SELECT 1; DELETE FROM nums",
		"CREATE TEMP TABLE scratch AS SELECT 1; SELECT 1",
		"DROP TABLE nums",
		"CREATE TABLE t2 (x INTEGER)",
		"CREATE TEMP TABLE t3 (x INTEGER)",
		"CREATE TEMP MACRO m(a) AS a + 1",
		"ALTER TABLE nums ADD COLUMN y INTEGER",
		"COPY nums TO '" + out + "'",
		"COPY (SELECT * FROM nums) TO '" + out + "' (FORMAT csv)",
		"EXPORT DATABASE '" + filepath.Join(dir, "export") + "'",
		"ATTACH '" + filepath.Join(dir, "other.duckdb") + "' AS o",
		"ATTACH ':memory:' AS m",
		"INSTALL httpfs",
		"LOAD httpfs",
		"SET access_mode = 'READ_WRITE'",
		"SET enable_external_access = true",
		"RESET enable_external_access",
		"SET lock_configuration = false",
		"PRAGMA enable_profiling",
		"SET VARIABLE v = 1",
		"PREPARE p AS SELECT 1",
		"CHECKPOINT",
		"VACUUM",
		"BEGIN TRANSACTION",
		"CREATE SECRET (TYPE s3, KEY_ID 'x', SECRET 'y')",
		"SELECT * FROM read_csv('/etc/passwd')",
		"SELECT * FROM read_csv('" + filepath.Join(dir, "notes.txt") + "')",
		"SELECT * FROM '" + filepath.Join(dir, "notes.txt") + "'",
		"SELECT * FROM read_text('/etc/hostname')",
		"SELECT * FROM read_blob('" + filepath.Join(dir, "notes.txt") + "')",
		"SELECT * FROM glob('/etc/*')",
		"SELECT * FROM read_parquet('https://example.com/x.parquet')",
	} {
		err := collect(context.Background(), c, sql, connector.QueryOptions{})
		if err == nil {
			t.Errorf("Query(%q) succeeded; it must be refused", sql)
			continue
		}
		if k := quarry.KindOf(err); k == quarry.KindInternal {
			t.Errorf("Query(%q): %v: kind %s, want rejected or query", sql, err, k)
		}
	}
	tab := connectortest.Collect(t, c, "SELECT count(*), sum(n) FROM nums", connector.QueryOptions{})
	if diff := cmp.Diff([][]any{{int64(10), "55"}}, tab.Rows); diff != "" {
		t.Errorf("after the refused writes (-want +got):\n%s", diff)
	}
	c.Close()
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("files changed (-before +after):\n%s", diff)
	}
}

func TestProbe(t *testing.T) {
	c, path := fixture(t)
	dir := filepath.Dir(path)
	before := snapshot(t, dir)
	tmpBefore, _ := filepath.Glob(filepath.Join(os.TempDir(), "quarry-probe-*"))
	results, err := c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatalf("ProbeReadOnly: %v", err)
	}
	var names []string
	for _, r := range results {
		names = append(names, r.Name)
		if !r.Refused {
			t.Errorf("probe %s (%s) was not refused: %s", r.Name, r.SQL, r.Detail)
		}
	}
	want := []string{"read-only handle", "CREATE TABLE", "INSERT", "COPY TO a file", "ATTACH", "INSTALL extension", "read a file",
		"SET access_mode", "SET enable_external_access", "SET lock_configuration"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("probes (-want +got):\n%s", diff)
	}
	tmpAfter, _ := filepath.Glob(filepath.Join(os.TempDir(), "quarry-probe-*"))
	if len(tmpAfter) > len(tmpBefore) {
		t.Errorf("the probe left temporary directories behind: %v", tmpAfter)
	}
	// The connection still works, and the file is untouched.
	tab := connectortest.Collect(t, c, "SELECT count(*) FROM orders", connector.QueryOptions{})
	if tab.Rows[0][0] != int64(1000) {
		t.Errorf("after the probe: %v", tab.Rows)
	}
	c.Close()
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("files changed (-before +after):\n%s", diff)
	}
	if s := c.ReadOnlyRoleSQL(); !strings.Contains(s, "chmod a-w "+path) {
		t.Errorf("ReadOnlyRoleSQL() = %q, want a chmod of the file", s)
	}
}

func TestCancel(t *testing.T) {
	c, _ := fixture(t)
	slow := "SELECT count(*) FROM orders a, orders b, orders c, orders d"
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	err := collect(ctx, c, slow, connector.QueryOptions{})
	if quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("canceled query: err = %v (kind %s), want canceled", err, quarry.KindOf(err))
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("cancel took %v to stop the query", took)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := collect(ctx, c, slow, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindTimeout {
		t.Errorf("query past the context deadline: err = %v (kind %s), want timeout", err, quarry.KindOf(err))
	}
	tab := connectortest.Collect(t, c, "SELECT count(*) FROM nums", connector.QueryOptions{})
	if tab.Rows[0][0] != int64(10) {
		t.Errorf("after the cancel: %v", tab.Rows)
	}
}

func TestGovernor(t *testing.T) {
	c, _ := fixture(t)
	err := collect(context.Background(), c, "SELECT count(*) FROM orders a, orders b", connector.QueryOptions{MaxEstimatedRows: 10_000})
	if quarry.KindOf(err) != quarry.KindTooCostly || !strings.Contains(err.Error(), "1,000,000") {
		t.Errorf("cross join under a 10,000-row ceiling: err = %v (kind %s), want too_costly naming 1,000,000", err, quarry.KindOf(err))
	}
	tab := connectortest.Collect(t, c, "SELECT count(*) FROM orders WHERE id < 10", connector.QueryOptions{MaxEstimatedRows: 10_000, MaxCost: 1})
	if tab.Rows[0][0] != int64(9) {
		t.Errorf("small query under the ceiling: %v", tab.Rows)
	}
}

func TestOneAtATime(t *testing.T) {
	c, _ := fixture(t)
	rows, err := c.Query(context.Background(), "SELECT n FROM nums", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindConflict {
		t.Errorf("second query while rows are open: %v, want conflict", err)
	}
	if err := c.Close(); quarry.KindOf(err) != quarry.KindConflict {
		t.Errorf("Close while rows are open: %v, want conflict", err)
	}
	rows.Close()
	for _, sql := range []string{"", "-- only a comment", "SELEC 1"} {
		if err := collect(context.Background(), c, sql, connector.QueryOptions{}); err == nil || quarry.KindOf(err) == quarry.KindInternal {
			t.Errorf("Query(%q) = %v (kind %s)", sql, err, quarry.KindOf(err))
		}
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindConnection {
		t.Errorf("query after Close: %v, want connection", err)
	}
}

func TestCatalog(t *testing.T) {
	c, _ := fixture(t)
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := cat.Table("orders")
	if o == nil {
		t.Fatalf("no orders table in %+v", cat)
	}
	if o.RowCount != 1000 {
		t.Errorf("orders row count = %d, want 1000", o.RowCount)
	}
	if col := o.Column("amount"); col == nil || col.Type != quarry.TypeDecimal || col.DeclType != "DECIMAL(10,2)" {
		t.Errorf("orders.amount = %+v", col)
	}
}

func TestIdentity(t *testing.T) {
	c, path := fixture(t)
	want := connector.Identity{Name: "shop", Dialect: quarry.DialectDuckDB, Target: path}
	if diff := cmp.Diff(want, c.Identity()); diff != "" {
		t.Errorf("Identity (-want +got):\n%s", diff)
	}
}

// Two connections to one file share DuckDB's database instance; the second
// finds the configuration locked already and must still open, and closing
// the first must leave the second working.
func TestOpenTwice(t *testing.T) {
	c1, path := fixture(t)
	c2, err := Open(context.Background(), path, Options{Name: "again"})
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	defer c2.Close()
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	tab := connectortest.Collect(t, c2, "SELECT count(*) FROM nums", connector.QueryOptions{})
	if tab.Rows[0][0] != int64(10) {
		t.Errorf("second connection after the first closed: %v", tab.Rows)
	}
	if err := collect(context.Background(), c2, "SELECT * FROM read_csv('/etc/passwd')", connector.QueryOptions{}); err == nil {
		t.Errorf("the second connection reads files outside the database")
	}
}
