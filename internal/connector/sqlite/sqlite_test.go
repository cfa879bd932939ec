package sqlite

import (
	"context"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

const schema = `
CREATE TABLE customers (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	score REAL,
	photo BLOB,
	born DATE,
	seen_at TIMESTAMP,
	active BOOLEAN,
	balance NUMERIC(10,2),
	misc,
	referred_by INTEGER REFERENCES customers(id)
);
CREATE TABLE orders (
	id INTEGER PRIMARY KEY,
	customer_id INTEGER NOT NULL REFERENCES customers,
	placed_at DATETIME,
	total REAL
);
CREATE TABLE order_lines (
	order_id INTEGER,
	line INTEGER,
	sku VARCHAR(20),
	PRIMARY KEY (order_id, line),
	FOREIGN KEY (order_id) REFERENCES orders(id)
);
CREATE VIEW big_orders AS SELECT id, total, upper('x') AS tag FROM orders WHERE total > 100;
INSERT INTO customers VALUES
	(1, 'Ada', 9.5, x'00ff', '1990-01-02', '2026-06-30 12:00:00', 1, 12.5, 'free', NULL),
	(2, 'Bob', NULL, NULL, NULL, NULL, 0, 7, 42, 1);
INSERT INTO orders VALUES (1, 1, '2026-06-01 10:00:00', 150.0), (2, 2, '2026-06-02 11:30:00', 20.0);
INSERT INTO order_lines VALUES (1, 1, 'A-1'), (1, 2, 'B-2');
`

// makeDB builds a database file from SQL with a writable handle and returns
// its path.
func makeDB(t testing.TB, sql string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(sql); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func open(t testing.TB, path string, opts Options) *Conn {
	t.Helper()
	c, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// readAll drains rows, copying each row.
func readAll(t testing.TB, rows quarry.Rows) [][]any {
	t.Helper()
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		out = append(out, append([]any(nil), rows.Values()...))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("rows: %v", err)
	}
	return out
}

func query(t testing.TB, c *Conn, sql string, opts connector.QueryOptions) ([]quarry.Column, [][]any) {
	t.Helper()
	rows, err := c.Query(context.Background(), sql, opts)
	if err != nil {
		t.Fatalf("Query(%q): %v", sql, err)
	}
	cols := rows.Columns()
	return cols, readAll(t, rows)
}

func TestQueryTypesAndValues(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	cols, rows := query(t, c, `SELECT * FROM customers ORDER BY id`, connector.QueryOptions{})
	wantCols := []quarry.Column{
		{Name: "id", Type: quarry.TypeInt, DBType: "INTEGER"},
		{Name: "name", Type: quarry.TypeText, DBType: "TEXT"},
		{Name: "score", Type: quarry.TypeFloat, DBType: "REAL"},
		{Name: "photo", Type: quarry.TypeBytes, DBType: "BLOB"},
		{Name: "born", Type: quarry.TypeDate, DBType: "DATE"},
		{Name: "seen_at", Type: quarry.TypeTimestamp, DBType: "TIMESTAMP"},
		{Name: "active", Type: quarry.TypeBool, DBType: "BOOLEAN"},
		{Name: "balance", Type: quarry.TypeFloat, DBType: "NUMERIC(10,2)"},
		{Name: "misc", Type: quarry.TypeText},
		{Name: "referred_by", Type: quarry.TypeInt, DBType: "INTEGER"},
	}
	if diff := cmp.Diff(wantCols, cols); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	wantRows := [][]any{
		{int64(1), "Ada", 9.5, []byte{0, 0xff}, "1990-01-02", "2026-06-30 12:00:00", true, 12.5, "free", nil},
		{int64(2), "Bob", nil, nil, nil, nil, false, int64(7), int64(42), int64(1)},
	}
	if diff := cmp.Diff(wantRows, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestQueryTypesFromValues(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	// Expressions have no declared type: the first non-NULL value decides,
	// even when it comes after NULL rows.
	cols, rows := query(t, c, `SELECT CASE WHEN column1 > 2 THEN column1 END AS late, column1 * 1.5 AS f,
		'x' || column1 AS s, x'01' AS b, NULL AS n, date('2026-06-30', '+' || column1 || ' days') AS d,
		datetime('2026-06-30 12:00:00') AS ts FROM (VALUES (1), (2), (3))`, connector.QueryOptions{})
	want := []quarry.Column{
		{Name: "late", Type: quarry.TypeInt},
		{Name: "f", Type: quarry.TypeFloat},
		{Name: "s", Type: quarry.TypeText},
		{Name: "b", Type: quarry.TypeBytes},
		{Name: "n", Type: quarry.TypeUnknown},
		{Name: "d", Type: quarry.TypeDate},
		{Name: "ts", Type: quarry.TypeTimestamp},
	}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	wantRows := [][]any{
		{nil, 1.5, "x1", []byte{1}, nil, "2026-07-01", "2026-06-30 12:00:00"},
		{nil, 3.0, "x2", []byte{1}, nil, "2026-07-02", "2026-06-30 12:00:00"},
		{int64(3), 4.5, "x3", []byte{1}, nil, "2026-07-03", "2026-06-30 12:00:00"},
	}
	if diff := cmp.Diff(wantRows, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestTypeOf(t *testing.T) {
	for decl, want := range map[string]quarry.Type{
		"":                  quarry.TypeUnknown,
		"INTEGER":           quarry.TypeInt,
		"bigint":            quarry.TypeInt,
		"VARCHAR(20)":       quarry.TypeText,
		"CLOB":              quarry.TypeText,
		"BLOB":              quarry.TypeBytes,
		"double precision":  quarry.TypeFloat,
		"FLOAT":             quarry.TypeFloat,
		"DECIMAL(10,2)":     quarry.TypeFloat,
		"DATE":              quarry.TypeDate,
		"DATETIME":          quarry.TypeTimestamp,
		"timestamp":         quarry.TypeTimestamp,
		"TIME":              quarry.TypeTime,
		"BOOLEAN":           quarry.TypeBool,
		"JSON":              quarry.TypeJSON,
		"STRING":            quarry.TypeFloat, // SQLite gives STRING numeric affinity
		" integer ":         quarry.TypeInt,
		"UNSIGNED BIG INT":  quarry.TypeInt,
		"NATIVE CHARACTER":  quarry.TypeText,
		"TIMESTAMP WITH TZ": quarry.TypeTimestamp,
	} {
		if got := TypeOf(decl); got != want {
			t.Errorf("TypeOf(%q) = %q, want %q", decl, got, want)
		}
	}
}

func TestTextType(t *testing.T) {
	for s, want := range map[string]quarry.Type{
		"2026-06-30":                quarry.TypeDate,
		"2026-06-30 12:00:00":       quarry.TypeTimestamp,
		"2026-06-30T12:00":          quarry.TypeTimestamp,
		"2026-06-30T12:00:00.250Z":  quarry.TypeTimestamp,
		"2026-06-30 12:00:00+02:00": quarry.TypeTimestamp,
		"2026-06":                   quarry.TypeText,
		"2026-06-30x":               quarry.TypeText,
		"2026-06-30 12":             quarry.TypeText,
		"2026-06-30 12:00:00.":      quarry.TypeText,
		"2026-06-30 12:00:00 UTC":   quarry.TypeText,
		"30/06/2026":                quarry.TypeText,
		"":                          quarry.TypeText,
	} {
		if got := textType(s); got != want {
			t.Errorf("textType(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestMaxRows(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	const series = `WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 100) SELECT x FROM s`
	for _, tc := range []struct {
		name      string
		sql       string
		max       int64
		wantRows  int
		truncated bool
	}{
		{"under the cap", series, 1000, 100, false},
		{"exactly the cap", series, 100, 100, false},
		{"cut", series, 10, 10, true},
		{"one", series, 1, 1, true},
		{"no cap", series, 0, 100, false},
		{"typed by value then cut", `SELECT CASE WHEN x > 50 THEN x END FROM (` + series + `)`, 7, 7, true},
		{"empty", `SELECT * FROM orders WHERE id < 0`, 5, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := c.Query(context.Background(), tc.sql, connector.QueryOptions{MaxRows: tc.max})
			if err != nil {
				t.Fatal(err)
			}
			got := readAll(t, rows)
			if len(got) != tc.wantRows {
				t.Errorf("rows = %d, want %d", len(got), tc.wantRows)
			}
			if tr := rows.(connector.Truncator).Truncated(); tr != tc.truncated {
				t.Errorf("Truncated = %v, want %v", tr, tc.truncated)
			}
		})
	}
}

// TestStreamingMemory reads a million rows in the plain test pass; under
// the race detector, which slows SQLite's interpreter loop many times
// over, a quarter of them, and the million is left to the plain pass (a
// skipped subtest, which scripts/test.sh runs there).
func TestStreamingMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a million rows")
	}
	if raceEnabled {
		streamingMemory(t, 250000)
	}
	t.Run("a million rows", func(t *testing.T) {
		if raceEnabled {
			t.Skip("runs in the plain test pass")
		}
		streamingMemory(t, 1000000)
	})
}

func streamingMemory(t *testing.T, total uint64) {
	c := open(t, makeDB(t, schema), Options{})
	rows, err := c.Query(context.Background(), `WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < `+strconv.FormatUint(total, 10)+`)
		SELECT x, printf('row %08d with some padding text to make it wide', x) AS label, x * 0.5 AS half FROM s`, connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ms runtime.MemStats
	var n, peak uint64
	for rows.Next() {
		n++
		if n%50000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != total {
		t.Fatalf("read %d rows, want %d", n, total)
	}
	// Buffering the result would need over 30 MB of Go heap even for the
	// shorter run.
	if peak > 16<<20 {
		t.Errorf("heap in use reached %d MB while streaming; rows are being buffered", peak>>20)
	}
	t.Logf("peak heap in use while streaming %d rows: %.1f MB", total, float64(peak)/(1<<20))
}

// TestKeptRowsKeepTheirBlobs: a caller that keeps rows (the state keeps
// results, MCP answers whole ones) keeps each row's own blob, not the
// bytes the next row wrote over it.
func TestKeptRowsKeepTheirBlobs(t *testing.T) {
	c := open(t, makeDB(t, `CREATE TABLE b (n INTEGER, v BLOB);
INSERT INTO b VALUES (1, X'00'), (2, X'01'), (3, X'0001'), (4, X'0108'), (5, NULL), (6, X'FFFF')`), Options{})
	tab := connectortest.Collect(t, c, "SELECT v FROM b ORDER BY n", connector.QueryOptions{})
	want := [][]any{{[]byte{0}}, {[]byte{1}}, {[]byte{0, 1}}, {[]byte{1, 8}}, {nil}, {[]byte{0xff, 0xff}}}
	if diff := cmp.Diff(want, tab.Rows); diff != "" {
		t.Errorf("kept rows (-want +got):\n%s", diff)
	}
}
