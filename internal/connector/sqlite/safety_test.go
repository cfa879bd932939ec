package sqlite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

func TestOpenBadPaths(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("this is not a database, just some text\n"), 0o644)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	fake := filepath.Join(dir, "fake.db")
	os.WriteFile(fake, append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0xAB}, 4096)...), 0o644)
	missing := filepath.Join(dir, "missing.db")
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", missing, "does not exist"},
		{"directory", dir, "is a directory"},
		{"text file", text, "is not a SQLite database"},
		{"empty file", empty, "is empty"},
		{"corrupt header", fake, "is not a SQLite database"},
		{"no path", "", "no SQLite database path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Open(context.Background(), tc.path, Options{})
			if err == nil {
				c.Close()
				t.Fatal("Open succeeded")
			}
			if k := quarry.KindOf(err); k != quarry.KindConnection {
				t.Errorf("kind = %s, want connection (%v)", k, err)
			}
			msg := quarry.Message(err)
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("message %q, want one line containing %q", msg, tc.want)
			}
		})
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("Open created %s", missing)
	}
}

// fileSum returns the bytes of the database file and whether any side file
// (journal, WAL) exists.
func fileState(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWritesRefusedWithoutGuard(t *testing.T) {
	path := makeDB(t, schema)
	before := fileState(t, path)
	c := open(t, path, Options{})
	other := filepath.Join(t.TempDir(), "other.db")
	vacuum := filepath.Join(t.TempDir(), "copy.db")
	for _, sql := range []string{
		`DELETE FROM orders`,
		`UPDATE orders SET total = 0`,
		`INSERT INTO orders (customer_id) VALUES (1)`,
		`SELECT 1; DELETE FROM orders`,
		`SELECT 1; SELECT 2`,
		`SELECT 1 /* a */; /* b */ DELETE FROM orders -- c`,
		`DROP TABLE orders`,
		`CREATE TABLE x (a)`,
		`CREATE TEMP TABLE x (a)`,
		`CREATE VIEW v2 AS SELECT 1`,
		`ALTER TABLE orders ADD COLUMN y`,
		`ATTACH DATABASE '` + other + `' AS o`,
		`DETACH DATABASE main`,
		`VACUUM`,
		`VACUUM INTO '` + vacuum + `'`,
		`PRAGMA query_only = 0`,
		`PRAGMA writable_schema = ON`,
		`BEGIN`,
		`BEGIN IMMEDIATE`,
		`SAVEPOINT s`,
		`ANALYZE`,
		`REINDEX`,
		`SELECT randomblob(1000000000)`,
		`SELECT zeroblob(1000000000)`,
		`SELECT load_extension('/tmp/x')`,
		`SELECT fts3_tokenizer('simple')`,
		`WITH d AS (DELETE FROM orders RETURNING id) SELECT * FROM d`,
		`INSERT INTO orders SELECT * FROM orders RETURNING id`,
		`REPLACE INTO orders VALUES (1, 1, NULL, 0)`,
		`SELECT * FROM temp.sqlite_schema`,
	} {
		t.Run(sql, func(t *testing.T) {
			rows, err := c.Query(context.Background(), sql, connector.QueryOptions{})
			if err == nil {
				rows.Close()
				t.Fatalf("Query succeeded")
			}
			k := quarry.KindOf(err)
			// A statement SQLite cannot compile (DELETE in a CTE, functions
			// this build does not have) is a query error; everything else
			// is a rejection.
			msg := quarry.Message(err)
			uncompilable := strings.Contains(msg, "syntax error") || strings.Contains(msg, "no such function")
			if k != quarry.KindRejected && !(k == quarry.KindQuery && uncompilable) {
				t.Errorf("kind = %s, want rejected (%v)", k, err)
			}
		})
	}
	for _, p := range []string{other, vacuum} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("a refused statement created %s", p)
		}
	}
	_, rows := query(t, c, `SELECT count(*) FROM orders`, connector.QueryOptions{})
	if diff := cmp.Diff([][]any{{int64(2)}}, rows); diff != "" {
		t.Errorf("orders changed (-want +got):\n%s", diff)
	}
	if !bytes.Equal(before, fileState(t, path)) {
		t.Error("the database file changed")
	}
	if _, err := os.Stat(path + "-journal"); !os.IsNotExist(err) {
		t.Error("a rollback journal was created")
	}
}

func TestAllowedStatementShapes(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	for _, sql := range []string{
		`SELECT 1;`,
		`SELECT 1; -- trailing comment`,
		"SELECT 1 /* c */ ;\n\t /* more */ ",
		`WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s WHERE x<3) SELECT sum(x) FROM s`,
		`VALUES (1, 'a')`,
		`SELECT * FROM big_orders`,
		`SELECT key, value FROM json_each('[1,2]')`,
		`SELECT json_extract('{"a":1}', '$.a'), '{"a":1}' ->> '$.a', date('now'), strftime('%Y', '2026-01-01')`,
		`SELECT name, row_number() OVER (ORDER BY id) FROM customers`,
		`EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id = 1`,
		`SELECT value FROM generate_series(1, 3)`,
	} {
		t.Run(sql, func(t *testing.T) {
			rows, err := c.Query(context.Background(), sql, connector.QueryOptions{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			readAll(t, rows)
		})
	}
}

func TestExtraFunctions(t *testing.T) {
	path := makeDB(t, schema)
	c := open(t, path, Options{})
	if _, err := c.Query(context.Background(), `SELECT base64(x'00ff')`, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindRejected {
		t.Fatalf("base64 by default: %v, want rejected", err)
	} else if !strings.Contains(quarry.Message(err), "base64") {
		t.Errorf("message %q does not name the function", quarry.Message(err))
	}
	c2 := open(t, path, Options{ExtraFunctions: []string{" BASE64 ", "zeroblob"}})
	_, rows := query(t, c2, `SELECT base64(x'00ff')`, connector.QueryOptions{})
	if diff := cmp.Diff([][]any{{"AP8="}}, rows); diff != "" {
		t.Error(diff)
	}
	// A function the guard never allows stays refused.
	if _, err := c2.Query(context.Background(), `SELECT zeroblob(2)`, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindRejected {
		t.Errorf("zeroblob as an extra function: %v, want rejected", err)
	}
}

func TestQueryErrors(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	for _, tc := range []struct {
		sql  string
		kind quarry.Kind
		want string
	}{
		{`SELECT nope FROM orders`, quarry.KindQuery, "no such column: nope"},
		{`SELECT * FROM nowhere`, quarry.KindQuery, "no such table: nowhere"},
		{`SELEC 1`, quarry.KindQuery, "syntax error"},
		{``, quarry.KindInput, "empty"},
		{`-- only a comment`, quarry.KindInput, "empty"},
		{`SELECT '` + strings.Repeat("x", maxSQLLength) + `'`, quarry.KindRejected, "too long"},
	} {
		name := tc.sql
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			_, err := c.Query(context.Background(), tc.sql, connector.QueryOptions{})
			if quarry.KindOf(err) != tc.kind || !strings.Contains(quarry.Message(err), tc.want) {
				t.Errorf("got %s %q, want %s containing %q", quarry.KindOf(err), quarry.Message(err), tc.kind, tc.want)
			}
		})
	}
	// The connection is usable after errors.
	query(t, c, `SELECT 1`, connector.QueryOptions{})
}

const endless = `WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s) SELECT x FROM s WHERE x < 0`

func TestTimeout(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	start := time.Now()
	rows, err := c.Query(context.Background(), endless, connector.QueryOptions{Timeout: 100 * time.Millisecond})
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if quarry.KindOf(err) != quarry.KindTimeout {
		t.Fatalf("err = %v, want timeout", err)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("timeout took %v to stop the query", el)
	}
	if !strings.Contains(quarry.Message(err), "100ms") {
		t.Errorf("message %q does not say the timeout", quarry.Message(err))
	}
	// The context's own deadline counts as a timeout too.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	rows, err = c.Query(ctx, `SELECT count(*) FROM (`+endless+`)`, connector.QueryOptions{})
	if err == nil {
		readAllErr(rows)
		err = rows.Err()
	}
	if quarry.KindOf(err) != quarry.KindTimeout {
		t.Fatalf("context deadline: err = %v, want timeout", err)
	}
	// The connection works again afterwards.
	query(t, c, `SELECT 1`, connector.QueryOptions{Timeout: time.Second})
}

func readAllErr(rows quarry.Rows) {
	defer rows.Close()
	for rows.Next() {
	}
}

func TestCancel(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	rows, err := c.Query(ctx, `SELECT x FROM (`+endless+`) UNION ALL SELECT 1`, connector.QueryOptions{})
	if err == nil {
		readAllErr(rows)
		err = rows.Err()
	}
	if quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("err = %v, want canceled", err)
	}
	if _, err := c.Query(ctx, `SELECT 1`, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindCanceled {
		t.Fatalf("canceled context: err = %v, want canceled", err)
	}
	query(t, c, `SELECT 1`, connector.QueryOptions{})
}

func TestOneQueryAtATime(t *testing.T) {
	c := open(t, makeDB(t, schema), Options{})
	rows, err := c.Query(context.Background(), `SELECT id FROM orders`, connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Query(context.Background(), `SELECT 1`, connector.QueryOptions{}); quarry.KindOf(err) != quarry.KindConflict {
		t.Errorf("second query while rows open: %v, want conflict", err)
	}
	if _, err := c.Catalog(context.Background()); quarry.KindOf(err) != quarry.KindConflict {
		t.Errorf("catalog while rows open: %v, want conflict", err)
	}
	if err := c.Close(); quarry.KindOf(err) != quarry.KindConflict {
		t.Errorf("close while rows open: %v, want conflict", err)
	}
	rows.Close()
	rows.Close() // twice is fine
	query(t, c, `SELECT 1`, connector.QueryOptions{})
}

func TestProbeReadOnly(t *testing.T) {
	path := makeDB(t, schema)
	before := fileState(t, path)
	c := open(t, path, Options{})
	got, err := c.ProbeReadOnly(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"read-only handle", "CREATE TABLE", "INSERT", "VACUUM INTO", "ATTACH", "PRAGMA query_only=0 then INSERT"}
	if len(got) != len(names) {
		t.Fatalf("got %d probes, want %d: %+v", len(got), len(names), got)
	}
	for i, r := range got {
		if r.Name != names[i] {
			t.Errorf("probe %d is %q, want %q", i, r.Name, names[i])
		}
		if !r.Refused {
			t.Errorf("probe %q was not refused: %s", r.Name, r.Detail)
		}
		if r.Detail == "" {
			t.Errorf("probe %q has no detail", r.Name)
		}
		t.Logf("%s: %s", r.Name, r.Detail)
	}
	if !bytes.Equal(before, fileState(t, path)) {
		t.Error("the probe changed the database file")
	}
	// query_only is still on and the connection still serves queries.
	var qo int64
	c.auth.internal = true
	c.db.SetAuthorizer(nil)
	err = c.internal(context.Background(), `PRAGMA query_only`, nil, func(s *sqlite3.Stmt) { qo = s.ColumnInt64(0) })
	c.db.SetAuthorizer(c.auth.authorize)
	c.auth.internal = false
	if err != nil || qo != 1 {
		t.Errorf("query_only = %d (%v) after the probe, want 1", qo, err)
	}
	query(t, c, `SELECT count(*) FROM customers`, connector.QueryOptions{})
}

func TestSeesChangesByOthers(t *testing.T) {
	path := makeDB(t, schema)
	c := open(t, path, Options{})
	query(t, c, `SELECT count(*) FROM orders`, connector.QueryOptions{})
	w, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Exec(`INSERT INTO orders VALUES (3, 1, '2026-06-03 09:00:00', 5)`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	_, rows := query(t, c, `SELECT count(*) FROM orders`, connector.QueryOptions{})
	if diff := cmp.Diff([][]any{{int64(3)}}, rows); diff != "" {
		t.Errorf("count after another writer (-want +got):\n%s", diff)
	}
}

func TestWALDatabase(t *testing.T) {
	path := makeDB(t, `PRAGMA journal_mode=WAL; CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2);`)
	c := open(t, path, Options{})
	_, rows := query(t, c, `SELECT sum(a) FROM t`, connector.QueryOptions{})
	if diff := cmp.Diff([][]any{{int64(3)}}, rows); diff != "" {
		t.Error(diff)
	}
}

func TestCatalog(t *testing.T) {
	c := open(t, makeDB(t, schema+`CREATE VIEW broken AS SELECT gone FROM orders;`), Options{})
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	col := func(name, decl string, typ quarry.Type, nullable bool) quarry.ColumnInfo {
		return quarry.ColumnInfo{Name: name, DeclType: decl, Type: typ, Nullable: nullable}
	}
	want := &quarry.Catalog{Dialect: quarry.DialectSQLite, Tables: []quarry.TableInfo{
		{Name: "big_orders", View: true, RowCount: -1, Columns: []quarry.ColumnInfo{
			col("id", "INTEGER", quarry.TypeInt, true),
			col("total", "REAL", quarry.TypeFloat, true),
			col("tag", "", quarry.TypeUnknown, true),
		}},
		{Name: "broken", View: true, RowCount: -1},
		{Name: "customers", RowCount: 2, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{
			col("id", "INTEGER", quarry.TypeInt, false),
			col("name", "TEXT", quarry.TypeText, false),
			col("score", "REAL", quarry.TypeFloat, true),
			col("photo", "BLOB", quarry.TypeBytes, true),
			col("born", "DATE", quarry.TypeDate, true),
			col("seen_at", "TIMESTAMP", quarry.TypeTimestamp, true),
			col("active", "BOOLEAN", quarry.TypeBool, true),
			col("balance", "NUMERIC(10,2)", quarry.TypeFloat, true),
			col("misc", "", quarry.TypeUnknown, true),
			col("referred_by", "INTEGER", quarry.TypeInt, true),
		}, ForeignKeys: []quarry.ForeignKey{
			{Columns: []string{"referred_by"}, RefTable: "customers", RefColumns: []string{"id"}},
		}},
		{Name: "order_lines", RowCount: 2, PrimaryKey: []string{"order_id", "line"}, Columns: []quarry.ColumnInfo{
			col("order_id", "INTEGER", quarry.TypeInt, false),
			col("line", "INTEGER", quarry.TypeInt, false),
			col("sku", "VARCHAR(20)", quarry.TypeText, true),
		}, ForeignKeys: []quarry.ForeignKey{
			{Columns: []string{"order_id"}, RefTable: "orders", RefColumns: []string{"id"}},
		}},
		{Name: "orders", RowCount: 2, PrimaryKey: []string{"id"}, Columns: []quarry.ColumnInfo{
			col("id", "INTEGER", quarry.TypeInt, false),
			col("customer_id", "INTEGER", quarry.TypeInt, false),
			col("placed_at", "DATETIME", quarry.TypeTimestamp, true),
			col("total", "REAL", quarry.TypeFloat, true),
		}, ForeignKeys: []quarry.ForeignKey{
			// No parent column named: the parent's primary key.
			{Columns: []string{"customer_id"}, RefTable: "customers", RefColumns: []string{"id"}},
		}},
	}}
	if diff := cmp.Diff(want, cat); diff != "" {
		t.Errorf("catalog (-want +got):\n%s", diff)
	}
	// Views: the views alone, each as Catalog describes it.
	views, err := c.Views(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	onlyViews := &quarry.Catalog{Dialect: quarry.DialectSQLite, Tables: want.Tables[:2]}
	if diff := cmp.Diff(onlyViews, views); diff != "" {
		t.Errorf("views (-want +got):\n%s", diff)
	}
	// The introspection pragmas are decided in one place, sqlitecheck's
	// authorizer: the table-valued form reads only the schema and is
	// allowed, as quarry guard allows it; a pragma that sets something is
	// not.
	for _, sql := range []string{`SELECT * FROM pragma_foreign_key_list('orders')`, `SELECT name FROM pragma_table_info('orders')`} {
		rows, err := c.Query(context.Background(), sql, connector.QueryOptions{})
		if err != nil {
			t.Errorf("%s: %v, want allowed", sql, err)
			continue
		}
		rows.Close()
	}
	for _, sql := range []string{`SELECT * FROM pragma_query_only`, `SELECT * FROM pragma_journal_mode`} {
		// SQLite runs the pragma when the statement steps, and the
		// authorizer refuses it then.
		if rows, err := c.Query(context.Background(), sql, connector.QueryOptions{}); err == nil {
			for rows.Next() {
			}
			if rows.Err() == nil {
				t.Errorf("%s: allowed, want refused", sql)
			}
			rows.Close()
		}
	}
}
