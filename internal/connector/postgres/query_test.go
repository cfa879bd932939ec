package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/connectortest"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestMoreTypes(t *testing.T) {
	url := testURL(t)
	pc := admin(t)
	s := tempSchema(t, pc)
	exec(t, pc,
		"CREATE TYPE "+s+".mood AS ENUM ('sad', 'happy')",
		"CREATE DOMAIN "+s+".money2 AS numeric(10,2)",
		"CREATE DOMAIN "+s+".posint AS integer CHECK (VALUE > 0)",
	)
	c := openConn(t, url, Options{})
	tab := connectortest.Collect(t, c, `SELECT 'happy'::`+s+`.mood AS enum, 12.5::`+s+`.money2 AS dom_num, 7::`+s+`.posint AS dom_int,
		'NaN'::numeric AS n_nan, 'Infinity'::numeric AS n_inf, 0.1::real AS f4,
		'-1 year -2 days -00:00:01.5'::interval AS iv_neg, '0'::interval AS iv_zero,
		'13:45:56+02'::timetz AS ttz, 'x'::"char" AS ch, 'pg_class'::regclass::oid AS o,
		'{{1,2},{3,4}}'::int[] AS a2, ARRAY['2024-01-02'::date] AS a_date, ARRAY[1.50::numeric] AS a_num,
		ARRAY['A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid] AS a_uuid, ARRAY['NaN'::float8, 2.5] AS a_f,
		ARRAY['2024-01-02 03:04:05+00'::timestamptz] AS a_ts, ARRAY['sad'::`+s+`.mood] AS a_enum,
		'-infinity'::timestamptz AS ts_inf, '0044-03-15 BC'::date AS bc, '127.0.0.1/8'::inet AS ip,
		'24:00:00'::time AS midnight, '9999-12-31 23:59:59.999999'::timestamp AS ts_far, '1500-01-01 00:00:00.5'::timestamp AS ts_old, 1e400::numeric(500,0)::text::numeric AS huge`, connector.QueryOptions{})
	want := map[string]struct {
		typ  quarry.Type
		json string
	}{
		"enum":     {quarry.TypeText, `"happy"`},
		"dom_num":  {quarry.TypeDecimal, `"12.50"`},
		"dom_int":  {quarry.TypeInt, `7`},
		"n_nan":    {quarry.TypeDecimal, `"NaN"`},
		"n_inf":    {quarry.TypeDecimal, `"Infinity"`},
		"f4":       {quarry.TypeFloat, `0.1`},
		"iv_neg":   {quarry.TypeInterval, `"P-1Y-2DT-1.5S"`},
		"iv_zero":  {quarry.TypeInterval, `"PT0S"`},
		"ttz":      {quarry.TypeTime, `"13:45:56+02"`},
		"ch":       {quarry.TypeText, `"x"`},
		"o":        {quarry.TypeInt, `1259`},
		"a2":       {quarry.TypeArray, `[1,2,3,4]`},
		"a_date":   {quarry.TypeArray, `["2024-01-02"]`},
		"a_num":    {quarry.TypeArray, `["1.50"]`},
		"a_uuid":   {quarry.TypeArray, `["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"]`},
		"a_f":      {quarry.TypeArray, `["NaN",2.5]`},
		"a_ts":     {quarry.TypeArray, `["2024-01-02T03:04:05Z"]`},
		"a_enum":   {quarry.TypeText, `"{sad}"`},
		"ts_inf":   {quarry.TypeTimestamp, `"-infinity"`},
		"bc":       {quarry.TypeDate, `"0044-03-15 BC"`},
		"ip":       {quarry.TypeText, `"127.0.0.1/8"`},
		"midnight": {quarry.TypeTime, `"24:00:00"`},
		"ts_far":   {quarry.TypeTimestamp, `"9999-12-31T23:59:59.999999Z"`},
		"ts_old":   {quarry.TypeTimestamp, `"1500-01-01T00:00:00.5Z"`},
		"huge":     {quarry.TypeDecimal, `"1` + strings.Repeat("0", 400) + `"`},
	}
	for i, col := range tab.Columns {
		w, ok := want[col.Name]
		if !ok {
			t.Errorf("unexpected column %s", col.Name)
			continue
		}
		got, err := json.Marshal(quarry.JSONValue(tab.Rows[0][i]))
		if err != nil {
			t.Errorf("%s: %v", col.Name, err)
			continue
		}
		if col.Type != w.typ || string(got) != w.json {
			t.Errorf("%s (%s): %s %s, want %s %s", col.Name, col.DBType, col.Type, got, w.typ, w.json)
		}
	}
}

// heapMB samples the live heap.
func heapMB() float64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

func TestStreamingMillionRows(t *testing.T) {
	if testing.Short() {
		t.Skip("streams a million rows")
	}
	c := openConn(t, testURL(t), Options{})
	runtime.GC()
	base := heapMB()
	start := time.Now()
	rows, err := c.Query(context.Background(), `SELECT g, g::text || ' some text to make the row wider', g * 1.5::float8, now()
		FROM generate_series(1, 1000000) g`, connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int64
	peak := 0.0
	for rows.Next() {
		n++
		if v := rows.Values()[0].(int64); v != n {
			t.Fatalf("row %d has g = %d", n, v)
		}
		if n%100_000 == 0 {
			runtime.GC()
			peak = max(peak, heapMB()-base)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if n != 1_000_000 {
		t.Fatalf("read %d rows, want 1000000", n)
	}
	t.Logf("streamed %d rows in %v (%.0f rows/s); live heap grew at most %.1f MiB", n, took, float64(n)/took.Seconds(), peak)
	if peak > 32 {
		t.Errorf("the live heap grew %.1f MiB while streaming; want constant memory", peak)
	}
}

// activeQueries counts server backends running a query that contains
// marker, waiting up to 15 s for them to go (a loaded server forks the
// process that handles a cancel request slowly).
func activeQueries(t *testing.T, marker string) int {
	t.Helper()
	pc := admin(t)
	var n int
	for deadline := time.Now().Add(15 * time.Second); ; {
		err := pc.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE state = 'active' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`, marker).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// crossJoin is a long query with no pg_sleep: 10^10 rows to count.
func crossJoin(marker string) string {
	return "SELECT count(*) /* " + marker + " */ FROM generate_series(1, 100000) a, generate_series(1, 100000) b"
}

func TestTimeoutStopsTheServer(t *testing.T) {
	c := openConn(t, testURL(t), Options{})
	marker := uniqueName("timeout")
	start := time.Now()
	_, err := connectortest.TryCollect(context.Background(), c, crossJoin(marker), connector.QueryOptions{Timeout: 500 * time.Millisecond})
	took := time.Since(start)
	if quarry.KindOf(err) != quarry.KindTimeout {
		t.Fatalf("err = %v, want KindTimeout", err)
	}
	if !strings.Contains(quarry.Message(err), "500ms timeout") {
		t.Errorf("message %q does not name the timeout", quarry.Message(err))
	}
	t.Logf("timeout after %v", took)
	if took > 10*time.Second {
		t.Errorf("the 500ms timeout took %v", took)
	}
	if n := activeQueries(t, marker); n != 0 {
		t.Errorf("%d server queries still active after the timeout", n)
	}
}

func TestCancelStopsTheServer(t *testing.T) {
	c := openConn(t, testURL(t), Options{})
	for _, streaming := range []bool{false, true} {
		marker := uniqueName("cancel")
		sql := crossJoin(marker)
		if streaming { // rows flowing when the cancel comes
			sql = "SELECT a /* " + marker + " */ FROM generate_series(1, 100000) a, generate_series(1, 100000) b"
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		start := time.Now()
		_, err := connectortest.TryCollect(ctx, c, sql, connector.QueryOptions{Timeout: 20 * time.Second})
		took := time.Since(start)
		if quarry.KindOf(err) != quarry.KindCanceled {
			t.Fatalf("streaming %v: err = %v, want KindCanceled", streaming, err)
		}
		t.Logf("streaming %v: canceled after %v", streaming, took)
		if took > 12*time.Second {
			t.Errorf("streaming %v: the cancel took %v", streaming, took)
		}
		if n := activeQueries(t, marker); n != 0 {
			t.Errorf("streaming %v: %d server queries still active after the cancel", streaming, n)
		}
	}
}

func TestMaxRowsStopsTheServer(t *testing.T) {
	c := openConn(t, testURL(t), Options{})
	marker := uniqueName("maxrows")
	start := time.Now()
	tab := connectortest.Collect(t, c, "SELECT a /* "+marker+" */ FROM generate_series(1, 100000) a, generate_series(1, 100000) b", connector.QueryOptions{MaxRows: 5, Timeout: 20 * time.Second})
	t.Logf("stopped at MaxRows after %v", time.Since(start))
	if len(tab.Rows) != 5 || !tab.Truncated {
		t.Fatalf("%d rows, truncated %v; want 5, true", len(tab.Rows), tab.Truncated)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("stopping at MaxRows took %v", took)
	}
	if n := activeQueries(t, marker); n != 0 {
		t.Errorf("%d server queries still active after MaxRows", n)
	}
}

func TestCostGovernor(t *testing.T) {
	c := openConn(t, testURL(t), Options{})
	big := "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b"
	_, err := connectortest.TryCollect(context.Background(), c, big, connector.QueryOptions{MaxEstimatedRows: 1_000_000, Timeout: 10 * time.Second})
	if quarry.KindOf(err) != quarry.KindTooCostly {
		t.Fatalf("over max_estimated_rows: err = %v, want KindTooCostly", err)
	}
	msg := quarry.Message(err)
	if !strings.Contains(msg, "estimated 10,000,000,000 rows > limits.max_estimated_rows 1,000,000; add filters or a LIMIT, or raise the limit") {
		t.Errorf("message %q", msg)
	}
	_, err = connectortest.TryCollect(context.Background(), c, big, connector.QueryOptions{MaxCost: 1e6, Timeout: 10 * time.Second})
	if quarry.KindOf(err) != quarry.KindTooCostly || !strings.Contains(quarry.Message(err), "limits.max_cost 1,000,000") {
		t.Fatalf("over max_cost: err = %v, want KindTooCostly naming limits.max_cost", err)
	}
	// A small query passes, even with a trailing comment.
	tab := connectortest.Collect(t, c, "SELECT g FROM generate_series(1, 10) g -- ten rows", connector.QueryOptions{MaxCost: 1e6, MaxEstimatedRows: 1000})
	if len(tab.Rows) != 10 {
		t.Errorf("small query: %d rows, want 10", len(tab.Rows))
	}
	// An EXPLAIN statement cannot be costed; it is refused with a reason.
	_, err = connectortest.TryCollect(context.Background(), c, "/* plan */ explain SELECT 1", connector.QueryOptions{MaxCost: 1e6})
	if quarry.KindOf(err) != quarry.KindRejected || !strings.Contains(quarry.Message(err), "cost ceiling") {
		t.Errorf("EXPLAIN under a ceiling: err = %v, want KindRejected naming the cost ceiling", err)
	}
	// A cost ceiling does not let a second statement through EXPLAIN.
	_, err = connectortest.TryCollect(context.Background(), c, "SELECT 1; SELECT 2", connector.QueryOptions{MaxCost: 1e6, Timeout: 10 * time.Second})
	if err == nil {
		t.Error("SELECT 1; SELECT 2 ran under a cost ceiling")
	}
}

func TestReadOnlyWithoutTheGuard(t *testing.T) {
	url := testURL(t)
	pc := admin(t)
	s := tempSchema(t, pc)
	exec(t, pc, "CREATE TABLE "+s+".t (id int PRIMARY KEY, v text)", "INSERT INTO "+s+".t VALUES (1, 'a'), (2, 'b')")
	c := openConn(t, url, Options{PoolSize: 1}) // one connection: every statement reuses the same session
	ctx := context.Background()
	for _, tc := range []struct {
		sql  string
		kind quarry.Kind
	}{
		{"DELETE FROM " + s + ".t", quarry.KindRejected},
		{"SELECT 1; DELETE FROM " + s + ".t", quarry.KindRejected},
		{"SELECT 1; SELECT 2", quarry.KindRejected},
		{"SELECT 1; COMMIT; DELETE FROM " + s + ".t", quarry.KindRejected},
		{"SET TRANSACTION READ WRITE", quarry.KindQuery},
		{"WITH d AS (DELETE FROM " + s + ".t RETURNING *) SELECT * FROM d", quarry.KindRejected},
		{"SELECT * FROM " + s + ".t FOR UPDATE", quarry.KindRejected},
		{"CREATE TABLE " + s + ".u (x int)", quarry.KindRejected},
		{"CREATE TEMP TABLE u (x int)", quarry.KindRejected},
	} {
		_, err := connectortest.TryCollect(ctx, c, tc.sql, connector.QueryOptions{})
		if quarry.KindOf(err) != tc.kind {
			t.Errorf("Query(%q): err = %v, want kind %s", tc.sql, err, tc.kind)
		}
	}
	// Statements that change the session succeed, and change nothing
	// for the next query.
	for _, sql := range []string{
		"SELECT set_config('default_transaction_read_only', 'off', false)",
		"SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
		"SELECT pg_advisory_lock(424242)",
		"COMMIT",
	} {
		if _, err := connectortest.TryCollect(ctx, c, sql, connector.QueryOptions{}); err != nil {
			t.Logf("Query(%q): %v", sql, err)
		}
		if _, err := connectortest.TryCollect(ctx, c, "DELETE FROM "+s+".t", connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindRejected {
			t.Errorf("after %q, DELETE: err = %v, want KindRejected", sql, err)
		}
	}
	var n int
	if err := pc.QueryRow(ctx, "SELECT count(*) FROM "+s+".t").Scan(&n); err != nil || n != 2 {
		t.Errorf("rows left: %d (%v), want 2", n, err)
	}
	if err := pc.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 424242").Scan(&n); err != nil || n != 0 {
		t.Errorf("advisory locks held after the query: %d (%v), want 0", n, err)
	}
}

func TestConnectionDroppedMidQuery(t *testing.T) {
	c := openConn(t, testURL(t), Options{})
	pc := admin(t)
	marker := uniqueName("dropped")
	killed := make(chan struct{})
	defer func() { <-killed }()
	go func() {
		defer close(killed)
		time.Sleep(500 * time.Millisecond)
		pc.Exec(context.Background(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()", marker)
	}()
	start := time.Now()
	_, err := connectortest.TryCollect(context.Background(), c, crossJoin(marker), connector.QueryOptions{Timeout: 20 * time.Second})
	if quarry.KindOf(err) != quarry.KindConnection {
		t.Fatalf("err = %v, want KindConnection", err)
	}
	if strings.Contains(quarry.Message(err), "\n") || !strings.Contains(quarry.Message(err), "run it again") {
		t.Errorf("message %q: want one line that says what to do", quarry.Message(err))
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
	// The pool recovers.
	tab := connectortest.Collect(t, c, "SELECT 1", connector.QueryOptions{})
	if len(tab.Rows) != 1 {
		t.Errorf("after the drop: %v", tab.Rows)
	}
}

func TestBadConnections(t *testing.T) {
	url := testURL(t)
	const secret = "s3cret-Pw"
	ctx := context.Background()
	for _, tc := range []struct {
		name, url, want string
	}{
		{"unknown user", withUser(url, "no_such_user_q", secret), `role "no_such_user_q" does not exist`},
		{"missing database", strings.Replace(withUser(url, "postgres", secret), "/quarry_test", "/no_such_db_q", 1), "check the database name"},
		{"refused port", "postgres://postgres:" + secret + "@127.0.0.1:1/db?sslmode=disable", "check the host and port"},
		{"unknown host", "postgres://postgres:" + secret + "@no-such-host.invalid:5432/db?sslmode=disable&connect_timeout=3", "not found"},
		{"invalid URL", "postgres://postgres:" + secret + "@127.0.0.1:notaport/db", "invalid"},
		{"invalid DSN", "host=127.0.0.1 password=" + secret + " port=x", "invalid"},
		{"empty", " ", "no PostgreSQL URL"},
	} {
		start := time.Now()
		c, err := Open(ctx, tc.url, Options{})
		if err == nil {
			c.Close()
			t.Errorf("%s: Open succeeded", tc.name)
			continue
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s: took %v", tc.name, took)
		}
		if quarry.KindOf(err) != quarry.KindConnection {
			t.Errorf("%s: kind %s, want connection: %v", tc.name, quarry.KindOf(err), err)
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(quarry.Message(err), "\n") {
			t.Errorf("%s: error leaks the password or spans lines: %q", tc.name, err.Error())
		}
		if !strings.Contains(quarry.Message(err), tc.want) {
			t.Errorf("%s: message %q, want it to contain %q", tc.name, quarry.Message(err), tc.want)
		}
	}
	if _, err := Open(ctx, url, Options{WorkMem: "64MB'; DROP"}); quarry.KindOf(err) != quarry.KindConfig {
		t.Errorf("bad work_mem: err = %v, want KindConfig", err)
	}
}

func TestIdentityAndCatalogEstimates(t *testing.T) {
	url := testURL(t)
	pc := admin(t)
	s := tempSchema(t, pc)
	exec(t, pc, "CREATE TABLE "+s+".never (x int)", "CREATE TABLE "+s+".analyzed AS SELECT g AS x FROM generate_series(1, 500) g",
		"ANALYZE "+s+".analyzed", "CREATE MATERIALIZED VIEW "+s+".mv AS SELECT 1 AS one")
	c := openConn(t, url, Options{Name: "main"})
	if id := c.Identity(); id.Name != "main" || id.Dialect != quarry.DialectPostgres || !strings.HasSuffix(id.Target, "/quarry_test") || strings.Contains(id.Target, "@") {
		t.Errorf("Identity() = %+v", id)
	}
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	views := map[string]bool{}
	for _, tb := range cat.Tables {
		if tb.Schema == s {
			got[tb.Name] = tb.RowCount
			views[tb.Name] = tb.View
		}
	}
	if diff := cmp.Diff(map[string]int64{"never": -1, "analyzed": 500, "mv": -1}, got); diff != "" {
		t.Errorf("row estimates (-want +got):\n%s", diff)
	}
	if !views["mv"] || views["analyzed"] {
		t.Errorf("views = %v, want only mv", views)
	}
	if !strings.Contains(c.ReadOnlyRoleSQL(), `GRANT SELECT ON ALL TABLES IN SCHEMA "public" TO quarry_reader`) {
		t.Errorf("ReadOnlyRoleSQL:\n%s", c.ReadOnlyRoleSQL())
	}
}

func TestSimpleProtocolCannotBeChosen(t *testing.T) {
	url := testURL(t)
	pc := admin(t)
	s := tempSchema(t, pc)
	exec(t, pc, "CREATE TABLE "+s+".t (id int)", "INSERT INTO "+s+".t VALUES (1)")
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	c := openConn(t, url+sep+"default_query_exec_mode=simple_protocol", Options{})
	for _, sql := range []string{"SELECT 1; SELECT 2", "SELECT 1; COMMIT; DELETE FROM " + s + ".t"} {
		if _, err := connectortest.TryCollect(context.Background(), c, sql, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindRejected {
			t.Errorf("Query(%q) with simple_protocol in the URL: err = %v, want KindRejected", sql, err)
		}
	}
	var n int
	if err := pc.QueryRow(context.Background(), "SELECT count(*) FROM "+s+".t").Scan(&n); err != nil || n != 1 {
		t.Errorf("rows left: %d (%v), want 1", n, err)
	}
}

func TestConcurrentQueries(t *testing.T) {
	c := openConn(t, testURL(t), Options{PoolSize: 2})
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			for i := range 5 {
				want := int64(w*100 + i)
				rows, err := c.Query(context.Background(), "SELECT "+strconv.FormatInt(want, 10)+"::int8", connector.QueryOptions{MaxRows: 1 + int64(i%2)})
				if err != nil {
					errs <- err
					return
				}
				if !rows.Next() || rows.Values()[0] != want {
					errs <- fmt.Errorf("worker %d query %d: got %v (%v)", w, i, rows.Values(), rows.Err())
					rows.Close()
					return
				}
				rows.Close()
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkSmallQuery measures the executor's fixed cost per query: BEGIN
// READ ONLY, the settings, the statement, ROLLBACK and DISCARD ALL.
func BenchmarkSmallQuery(b *testing.B) {
	c := openConn(b, testURL(b), Options{})
	for b.Loop() {
		rows, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
		}
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		rows.Close()
	}
}

// TestEstimate: the planner's estimate of a statement, without running it;
// a write is refused by the read-only transaction (EXPLAIN of an INSERT
// plans it, and nothing is inserted); two statements are refused.
func TestEstimate(t *testing.T) {
	c := openConn(t, testURL(t), Options{})
	var _ connector.Estimator = c
	ctx := context.Background()
	e, err := c.Estimate(ctx, "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b")
	if err != nil {
		t.Fatal(err)
	}
	if e.Rows != 1e10 || e.Cost <= 1e6 {
		t.Errorf("estimate %+v; want 10,000,000,000 rows at its widest step and a large cost", e)
	}
	if _, err := c.Estimate(ctx, "SELECT 1; SELECT 2"); err == nil {
		t.Error("two statements were estimated")
	}
	if _, err := c.Estimate(ctx, "  "); quarry.KindOf(err) != quarry.KindInput {
		t.Errorf("an empty statement: %v", err)
	}
	// The pool still works after a refused estimate.
	if e, err := c.Estimate(ctx, "SELECT 1"); err != nil || e.Rows != 1 {
		t.Errorf("after a refusal: %+v, %v", e, err)
	}
}
