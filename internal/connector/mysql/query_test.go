package mysql

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// readAll reads every row of a query.
func readAll(t testing.TB, c *Conn, sql string, opts connector.QueryOptions) (*quarry.Table, error) {
	t.Helper()
	rows, err := c.Query(context.Background(), sql, opts)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tab := &quarry.Table{Columns: rows.Columns()}
	for rows.Next() {
		tab.Rows = append(tab.Rows, append([]any(nil), rows.Values()...))
	}
	if tr, ok := rows.(connector.Truncator); ok {
		tab.Truncated = tr.Truncated()
	}
	return tab, rows.Err()
}

const everyType = `CREATE TABLE every (
	id INT PRIMARY KEY,
	ti TINYINT, b BOOLEAN, si SMALLINT, mi MEDIUMINT, i INT, bi BIGINT,
	ubi BIGINT UNSIGNED, ui INT UNSIGNED,
	d DECIMAL(20,6), f FLOAT, db DOUBLE,
	dt DATE, dtt DATETIME(6), ts TIMESTAMP NULL DEFAULT NULL, tm TIME, y YEAR,
	c CHAR(3), vc VARCHAR(50), tx TEXT, e ENUM('a','b'), st SET('x','y'),
	bn BINARY(2), vb VARBINARY(10), bl BLOB,
	j JSON, bt BIT(8), b1 BIT(1)
)`

func TestQueryTypes(t *testing.T) {
	d := newTestDB(t, everyType,
		`INSERT INTO every VALUES (1, 127, TRUE, -32768, 8388607, -2147483648, -9223372036854775808,
			18446744073709551615, 4294967295,
			'12345678901234.123456', 0.1, 1.5e300,
			'2026-06-30', '2026-06-30 12:34:56.789012', '2026-06-30 12:00:00', '-838:59:59', 2026,
			'äöü', '日本語 😀', 'line1\nline2 ''q'' \\ end', 'b', 'x,y',
			x'00ff', x'deadbeef', x'00',
			'{"a": [1, 2]}', b'10100101', b'1')`,
		`INSERT INTO every (id) VALUES (2)`,
		`INSERT INTO every (id, dt, dtt) VALUES (3, '0000-00-00', '0000-00-00 00:00:00')`,
	)
	c := open(t, d.dsn(nil))
	got, err := readAll(t, c, "SELECT * FROM every ORDER BY id", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantTypes := map[string]quarry.Type{
		"id": quarry.TypeInt, "ti": quarry.TypeInt, "b": quarry.TypeBool, "si": quarry.TypeInt, "mi": quarry.TypeInt,
		"i": quarry.TypeInt, "bi": quarry.TypeInt, "ubi": quarry.TypeBigInt, "ui": quarry.TypeInt,
		"d": quarry.TypeDecimal, "f": quarry.TypeFloat, "db": quarry.TypeFloat,
		"dt": quarry.TypeDate, "dtt": quarry.TypeTimestamp, "ts": quarry.TypeTimestamp, "tm": quarry.TypeTime, "y": quarry.TypeInt,
		"c": quarry.TypeText, "vc": quarry.TypeText, "tx": quarry.TypeText, "e": quarry.TypeText, "st": quarry.TypeText,
		"bn": quarry.TypeBytes, "vb": quarry.TypeBytes, "bl": quarry.TypeBytes,
		"j": quarry.TypeJSON, "b1": quarry.TypeBool,
		"bt": quarry.TypeInt,
	}
	gotTypes := map[string]quarry.Type{}
	for _, col := range got.Columns {
		gotTypes[col.Name] = col.Type
	}
	if diff := cmp.Diff(wantTypes, gotTypes); diff != "" {
		t.Errorf("column types (-want +got):\n%s", diff)
	}
	want := [][]any{
		{int64(1), int64(127), true, int64(-32768), int64(8388607), int64(-2147483648), int64(-9223372036854775808),
			"18446744073709551615", int64(4294967295),
			"12345678901234.123456", 0.1, 1.5e300,
			"2026-06-30", time.Date(2026, 6, 30, 12, 34, 56, 789012000, time.UTC), time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC), "-838:59:59", int64(2026),
			"äöü", "日本語 😀", "line1\nline2 'q' \\ end", "b", "x,y",
			[]byte{0, 0xff}, []byte{0xde, 0xad, 0xbe, 0xef}, []byte{0},
			json.RawMessage(`{"a": [1, 2]}`), int64(165), true},
		append([]any{int64(2)}, make([]any, 27)...),
		append([]any{int64(3)}, make([]any, 27)...),
	}
	if diff := cmp.Diff(want, got.Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	for _, row := range got.Rows {
		vals := make([]any, len(row))
		for i, v := range row {
			vals[i] = quarry.JSONValue(v)
		}
		if _, err := json.Marshal(vals); err != nil {
			t.Errorf("row %v is not JSON-safe: %v", row, err)
		}
	}
}

func TestQueryExpressions(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	got, err := readAll(t, c, "SELECT 1 > 0 AS yes, NULL AS nothing, CAST(1.5 AS DECIMAL(4,2)) AS amount, CAST('2026-01-02' AS DATE) AS day, JSON_OBJECT('k', 1) AS doc", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &quarry.Table{
		Columns: []quarry.Column{
			{Name: "yes", Type: quarry.TypeInt, DBType: "INT"},
			{Name: "nothing", Type: quarry.TypeUnknown, DBType: "NULL"},
			{Name: "amount", Type: quarry.TypeDecimal, DBType: "DECIMAL"},
			{Name: "day", Type: quarry.TypeDate, DBType: "DATE"},
			{Name: "doc", Type: quarry.TypeText, DBType: "VARCHAR"},
		},
		Rows: [][]any{{int64(1), nil, "1.50", "2026-01-02", `{"k": 1}`}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// seriesSQL counts from 1 to n with a recursive CTE.
func seriesSQL(n string) string {
	return "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < " + n + ") "
}

// TestQueryStreamsInConstantMemory reads a million rows in the plain test
// pass; under -short or the race detector a tenth of them, and the
// million is a skipped subtest there (scripts/test.sh runs it plainly).
func TestQueryStreamsInConstantMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		streamsInConstantMemory(t, 100_000)
	}
	t.Run("a million rows", func(t *testing.T) {
		if testing.Short() || raceEnabled {
			t.Skip("runs in the plain test pass")
		}
		streamsInConstantMemory(t, 1_000_000)
	})
}

func streamsInConstantMemory(t *testing.T, n int64) {
	d := newTestDB(t)
	var version string
	if err := d.admin.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	depth := "cte_max_recursion_depth" // MySQL
	if strings.Contains(version, "MariaDB") {
		depth = "max_recursive_iterations"
	}
	// The session variable is set by the driver in every new session.
	c := open(t, d.dsn(map[string]string{depth: "2000000"}))
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	rows, err := c.Query(context.Background(), seriesSQL(itoa(n))+"SELECT n, CONCAT('row-', n) AS label FROM r", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var count, sum int64
	var peak uint64
	for rows.Next() {
		v := rows.Values()
		count++
		sum += v[0].(int64)
		if count%100_000 == 0 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	if count != n || sum != n*(n+1)/2 {
		t.Fatalf("read %d rows summing to %d, want %d rows summing to %d", count, sum, n, n*(n+1)/2)
	}
	if tr := rows.(connector.Truncator); tr.Truncated() {
		t.Error("Truncated = true without MaxRows")
	}
	growth := int64(peak) - int64(before.HeapAlloc)
	t.Logf("%d rows in %s (%.0f rows/s); heap %d KiB before, peak %d KiB", n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), before.HeapAlloc>>10, peak>>10)
	if growth > 32<<20 {
		t.Errorf("the heap grew by %d MiB while streaming; want constant memory", growth>>20)
	}
}

func TestQueryMaxRowsStopsTheServer(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	mark := marker()
	// A thousand-row series joined with itself three times: 10^9 rows.
	sql := seriesSQL("1000") + "SELECT /* " + mark + " */ a.n, b.n, c.n FROM r a, r b, r c"
	start := time.Now()
	got, err := readAll(t, c, sql, connector.QueryOptions{MaxRows: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 5 || !got.Truncated {
		t.Fatalf("got %d rows, truncated=%v; want 5, true", len(got.Rows), got.Truncated)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("reading 5 rows and closing took %s", el)
	}
	d.waitGone(t, mark, 3*time.Second)

	// Exactly MaxRows rows is not truncated.
	got, err = readAll(t, c, "SELECT 1 UNION ALL SELECT 2", connector.QueryOptions{MaxRows: 2})
	if err != nil || len(got.Rows) != 2 || got.Truncated {
		t.Fatalf("2 rows with MaxRows 2: %v rows, truncated=%v, err=%v", got, got != nil && got.Truncated, err)
	}
}

// slowSQL takes minutes of CPU on the server without SLEEP: a count over
// 8·10^9 joined rows.
func slowSQL(mark string) string {
	return seriesSQL("2000") + "SELECT /* " + mark + " */ COUNT(*) FROM r a, r b, r c WHERE a.n + b.n + c.n > 0"
}

func TestQueryTimeoutStopsTheServer(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	mark := marker()
	start := time.Now()
	_, err := readAll(t, c, slowSQL(mark), connector.QueryOptions{Timeout: 500 * time.Millisecond})
	elapsed := time.Since(start)
	if quarry.KindOf(err) != quarry.KindTimeout {
		t.Fatalf("err = %v (%s), want KindTimeout", err, quarry.KindOf(err))
	}
	gone := d.waitGone(t, mark, 3*time.Second)
	t.Logf("timeout after %s; gone from the processlist %s later", elapsed.Round(time.Millisecond), gone.Round(time.Millisecond))
	if elapsed > 3*time.Second {
		t.Errorf("a 500ms timeout returned after %s", elapsed)
	}

	// The server's own limit is set in the session.
	got, err := readAll(t, c, "SELECT @@SESSION.max_statement_time", connector.QueryOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := got.Rows[0][0].(float64); v < 1 || v > 2 {
		t.Errorf("max_statement_time = %v, want about 2", got.Rows[0][0])
	}
}

func TestQueryServerTimeout(t *testing.T) {
	// The server's own limit, alone: a session with a short
	// max_statement_time and no client deadline.
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	if c.Flavor() != FlavorMariaDB {
		t.Skip("max_statement_time is MariaDB's")
	}
	ctx := context.Background()
	conn, err := c.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, c.timeoutSQL(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	var n int64
	err = conn.QueryRowContext(ctx, slowSQL(marker())).Scan(&n)
	if err = c.queryError(err); quarry.KindOf(err) != quarry.KindTimeout {
		t.Fatalf("err = %v (%s), want KindTimeout", err, quarry.KindOf(err))
	}
}

func TestQueryCancelStopsTheServer(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	mark := marker()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	rows, err := c.Query(ctx, slowSQL(mark), connector.QueryOptions{})
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	elapsed := time.Since(start)
	if quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("err = %v (%s), want KindCanceled", err, quarry.KindOf(err))
	}
	gone := d.waitGone(t, mark, 3*time.Second)
	t.Logf("canceled after %s; gone from the processlist %s later", elapsed.Round(time.Millisecond), gone.Round(time.Millisecond))
	if elapsed > 2*time.Second {
		t.Errorf("cancel returned after %s", elapsed)
	}

	// Closing the rows early stops the server too.
	mark = marker()
	rows, err = c.Query(context.Background(), seriesSQL("1000")+"SELECT /* "+mark+" */ a.n FROM r a, r b, r c", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	rows.Close()
	d.waitGone(t, mark, 3*time.Second)
}

func TestQueryGovernor(t *testing.T) {
	d := newTestDB(t, "CREATE TABLE big (n INT PRIMARY KEY, v INT)",
		"INSERT INTO big SELECT n, n % 7 FROM ("+seriesSQL("1000")+"SELECT n FROM r) s",
		"ANALYZE TABLE big")
	c := open(t, d.dsn(nil))
	sql := "SELECT COUNT(*) FROM big a, big b WHERE a.v = b.v + 100"

	_, err := readAll(t, c, sql, connector.QueryOptions{MaxEstimatedRows: 100_000})
	if quarry.KindOf(err) != quarry.KindTooCostly || !strings.Contains(err.Error(), "max_estimated_rows") {
		t.Fatalf("err = %v, want KindTooCostly naming max_estimated_rows", err)
	}
	_, err = readAll(t, c, sql, connector.QueryOptions{MaxCost: 100_000})
	if quarry.KindOf(err) != quarry.KindTooCostly || !strings.Contains(err.Error(), "max_cost") {
		t.Fatalf("err = %v, want KindTooCostly naming max_cost", err)
	}
	got, err := readAll(t, c, sql, connector.QueryOptions{MaxEstimatedRows: 10_000_000, MaxCost: 10_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]any{{int64(0)}}, got.Rows); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// EXPLAIN itself is not governed, and runs.
	if _, err := readAll(t, c, "EXPLAIN "+sql, connector.QueryOptions{MaxEstimatedRows: 10}); err != nil {
		t.Errorf("EXPLAIN under a ceiling: %v", err)
	}
	// A statement EXPLAIN cannot plan fails with the server's own error.
	_, err = readAll(t, c, "SELECT nope FROM big", connector.QueryOptions{MaxEstimatedRows: 10})
	if quarry.KindOf(err) != quarry.KindQuery || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("err = %v, want the unknown column", err)
	}
}

func TestQueryNeverWrites(t *testing.T) {
	d := newTestDB(t, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1), (2)")
	admin := open(t, d.dsn(nil))
	ro := open(t, d.user(t, "SELECT"))
	tests := []struct {
		sql  string
		kind quarry.Kind
	}{
		{"DELETE FROM t", quarry.KindRejected},
		{"SELECT 1; DELETE FROM t", quarry.KindQuery},
		{"SELECT * FROM t; DELETE FROM t", quarry.KindQuery},
		{"/*!50000 DELETE FROM t */", quarry.KindRejected},
		{"/*M!100100 DELETE FROM t */", quarry.KindRejected},
		{"CREATE TABLE t2 (a INT)", quarry.KindRejected},
		{"DROP TABLE t", quarry.KindRejected},
		{"  -- c\nTRUNCATE t", quarry.KindRejected},
		{"SELECT * FROM t FOR UPDATE", quarry.KindRejected},                    // the READ ONLY transaction
		{"WITH x AS (SELECT 1) DELETE FROM t", quarry.KindQuery},               // not MariaDB syntax
		{"SELECT 1 UNION SELECT 2; CREATE TABLE t3 (a INT)", quarry.KindQuery}, // one statement only
		{"SELECT 1 # comment\n; DELETE FROM t", quarry.KindQuery},              // one statement only
	}
	for name, c := range map[string]*Conn{"all privileges": admin, "SELECT only": ro} {
		for _, tt := range tests {
			_, err := readAll(t, c, tt.sql, connector.QueryOptions{})
			if err == nil {
				t.Errorf("%s: %q ran", name, tt.sql)
				continue
			}
			if k := quarry.KindOf(err); k != tt.kind && !(name == "SELECT only" && k == quarry.KindForbidden) {
				t.Errorf("%s: %q: %v (%s), want %s", name, tt.sql, err, k, tt.kind)
			}
		}
	}
	if n := d.count(t, "t"); n != 2 {
		t.Errorf("t has %d rows after the attempts, want 2", n)
	}
	var tables int
	if err := d.admin.QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", d.name).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 1 {
		t.Errorf("the database has %d tables after the attempts, want 1", tables)
	}
}

func TestQuerySessionsDoNotLeak(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	// A user variable set by one statement is gone in the next: each
	// statement gets its own session.
	if _, err := readAll(t, c, "SELECT @leak := 42", connector.QueryOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := readAll(t, c, "SELECT @leak, GET_LOCK('quarry_test_lock', 0)", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows[0][0] != nil {
		t.Errorf("@leak = %v in a later statement, want NULL", got.Rows[0][0])
	}
	// The named lock taken above is released with its session. The server
	// ends a closed session on its own thread, so the release can trail the
	// close by a moment: wait for it, within a bound.
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err = readAll(t, c, "SELECT IS_FREE_LOCK('quarry_test_lock')", connector.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Equal([][]any{{int64(1)}}, got.Rows) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("IS_FREE_LOCK = %v 5s after the session that took the lock ended, want 1", got.Rows)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestQueryConnectionKilled(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	mark := marker()
	done := make(chan error, 1)
	go func() {
		_, err := readAll(t, c, slowSQL(mark), connector.QueryOptions{})
		done <- err
	}()
	var id int64
	for start := time.Now(); id == 0 && time.Since(start) < 3*time.Second; time.Sleep(20 * time.Millisecond) {
		d.admin.QueryRow("SELECT COALESCE(MAX(ID), 0) FROM information_schema.PROCESSLIST WHERE INFO LIKE CONCAT('%', ?, '%') AND INFO NOT LIKE '%PROCESSLIST%'", mark).Scan(&id)
	}
	if id == 0 {
		t.Fatal("the query never showed in the processlist")
	}
	// The server drops the connection mid-query.
	if _, err := d.admin.Exec("KILL CONNECTION " + itoa(id)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if k := quarry.KindOf(err); k != quarry.KindConnection && k != quarry.KindQuery {
			t.Errorf("err = %v (%s), want connection or query", err, k)
		}
		t.Logf("killed connection: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("the query did not end after its connection was killed")
	}
}

func TestQueryErrors(t *testing.T) {
	d := newTestDB(t)
	c := open(t, d.dsn(nil))
	_, err := readAll(t, c, "SELECT * FROM missing_table", connector.QueryOptions{})
	if quarry.KindOf(err) != quarry.KindQuery || !strings.Contains(err.Error(), "missing_table") || strings.Contains(err.Error(), "\n") {
		t.Errorf("missing table: %v (%s)", err, quarry.KindOf(err))
	}
	_, err = readAll(t, c, "   ", connector.QueryOptions{})
	if quarry.KindOf(err) != quarry.KindInput {
		t.Errorf("empty statement: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Query(ctx, "SELECT 1", connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindCanceled {
		t.Errorf("canceled context: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	d := newTestDB(t)
	cfg := d.cfg.Clone()
	cfg.Passwd = "wrong-secret-pw"
	start := time.Now()
	_, err := Open(context.Background(), cfg.FormatDSN(), Options{})
	if quarry.KindOf(err) != quarry.KindConnection || !strings.Contains(err.Error(), "password") || strings.Contains(err.Error(), "wrong-secret-pw") {
		t.Errorf("wrong password: %v (%s)", err, quarry.KindOf(err))
	}

	cfg = d.cfg.Clone()
	cfg.Addr = "127.0.0.1:1"
	_, err = Open(context.Background(), cfg.FormatDSN(), Options{DialTimeout: 2 * time.Second})
	if quarry.KindOf(err) != quarry.KindConnection || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("unreachable port: %v (%s)", err, quarry.KindOf(err))
	}

	cfg = d.cfg.Clone()
	cfg.DBName = "quarry_no_such_db"
	_, err = Open(context.Background(), cfg.FormatDSN(), Options{})
	if quarry.KindOf(err) != quarry.KindConnection || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("unknown database: %v (%s)", err, quarry.KindOf(err))
	}

	_, err = Open(context.Background(), d.dsn(map[string]string{"multiStatements": "true"}), Options{})
	if quarry.KindOf(err) != quarry.KindConfig {
		t.Errorf("multiStatements=true: %v", err)
	}
	for _, mode := range []string{"'ANSI_QUOTES'", "'NO_BACKSLASH_ESCAPES'", "'ANSI'"} {
		_, err = Open(context.Background(), d.dsn(map[string]string{"sql_mode": mode}), Options{})
		if quarry.KindOf(err) != quarry.KindConfig || !strings.Contains(err.Error(), "sql_mode") {
			t.Errorf("sql_mode %s: %v", mode, err)
		}
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("the failures took %s", el)
	}
}

func TestOpenReadsTheServer(t *testing.T) {
	d := newTestDB(t)
	u := d.cfg.Clone()
	url := "mysql://" + u.User + ":" + u.Passwd + "@" + u.Addr + "/" + d.name
	c := open(t, url)
	if c.Flavor() != FlavorMariaDB && c.Flavor() != FlavorMySQL || c.Version() == "" {
		t.Errorf("Flavor, Version = %q, %q", c.Flavor(), c.Version())
	}
	if strings.Contains(c.SQLMode(), "ANSI_QUOTES") {
		t.Errorf("SQLMode = %q", c.SQLMode())
	}
	id := c.Identity()
	if id.Target != u.Addr+"/"+d.name || id.Dialect != quarry.DialectMySQL || id.Name != "test" {
		t.Errorf("Identity = %+v", id)
	}
	if c.Dialect() != quarry.DialectMySQL {
		t.Errorf("Dialect = %s", c.Dialect())
	}
	var e *quarry.Error
	if _, err := c.Query(context.Background(), "SELEKT 1", connector.QueryOptions{}); !errors.As(err, &e) {
		t.Errorf("syntax error is %T, want *quarry.Error", err)
	}
}

// BenchmarkQuery measures one small query end to end: a fresh session,
// the statement timeout, the read-only transaction, the rows, the
// rollback and the discarded session.
func BenchmarkQuery(b *testing.B) {
	d := newTestDB(b, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1), (2), (3)")
	c := open(b, d.dsn(nil))
	for _, bc := range []struct {
		name string
		opts connector.QueryOptions
	}{
		{"plain", connector.QueryOptions{}},
		{"timeout+governor", connector.QueryOptions{Timeout: time.Minute, MaxEstimatedRows: 1e6, MaxRows: 100}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := readAll(b, c, "SELECT id FROM t", bc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
