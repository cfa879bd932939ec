package sqlitecheck

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/sqlguard"
)

// openReadOnly builds a small database file and opens it read-only, the
// way the SQLite connector does.
func openReadOnly(t *testing.T) *sqlite3.Conn {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	w, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Exec(`CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT);
		CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);
		INSERT INTO customers VALUES (1, 'Ann'), (2, 'Bob');
		INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 3), (3, 2, 7);`)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestPrepareOnRealConn(t *testing.T) {
	conn := openReadOnly(t)
	ctx := context.Background()
	allowed := []struct {
		sql  string
		rows int
	}{
		{"SELECT c.name, sum(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name", 2},
		{"SELECT * FROM pragma_table_info('orders')", 3},
		{"SELECT * FROM pragma_foreign_key_list('orders')", 1},
		{"SELECT name FROM sqlite_master WHERE type = 'table'", 2},
		{"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 4) SELECT x FROM n", 4},
		{"SELECT 1; -- done", 1},
	}
	for _, tt := range allowed {
		stmt, v := Prepare(ctx, conn, tt.sql, sqlguard.Options{})
		if !v.Allowed || stmt == nil {
			t.Errorf("Prepare(%q) = %s", tt.sql, v)
			continue
		}
		n := 0
		for stmt.Step() {
			n++
		}
		if err := stmt.Err(); err != nil {
			t.Errorf("step %q: %v", tt.sql, err)
		}
		if n != tt.rows {
			t.Errorf("%q: %d rows, want %d", tt.sql, n, tt.rows)
		}
		stmt.Close()
	}
	rejected := []struct{ sql, code string }{
		{"SELECT * FROM missing", CodeEngineError},
		{"SELECT * FROM other.orders", CodeEngineSchema},
		{"ATTACH DATABASE ':memory:' AS x", CodeEngineDenied},
		{"PRAGMA query_only = 0", CodeEngineDenied},
		{"DELETE FROM orders", CodeEngineDenied},
		{"VACUUM INTO 'copy.db'", CodeEngineNotReadOnly},
		{"SELECT 1; SELECT 2", CodeEngineMultiple},
		{"", sqlguard.CodeEmpty},
		{"SELECT randomblob(10)", CodeEngineDenied},
	}
	for _, tt := range rejected {
		if v := CheckWithConn(ctx, conn, tt.sql, sqlguard.Options{}); v.Allowed || !v.Has(tt.code) {
			t.Errorf("CheckWithConn(%q) = %s, want %s", tt.sql, v, tt.code)
		}
	}
	// The authorizer stays installed for execution: a pragma that is not
	// for introspection is refused when the table-valued form is stepped.
	stmt, _, err := conn.Prepare("SELECT * FROM pragma_journal_mode")
	if err == nil {
		for stmt.Step() {
		}
		err = stmt.Err()
		stmt.Close()
	}
	if err == nil {
		t.Error("pragma_journal_mode ran under the installed authorizer")
	}
}

func TestAuthorizerDenials(t *testing.T) {
	var got []string
	auth := Authorizer(func(name string) bool { return name == "lower" }, func(d Denial) { got = append(got, d.String()) })
	cases := []struct {
		action sqlite3.AuthorizerActionCode
		n3, n4 string
		want   sqlite3.AuthorizerReturnCode
	}{
		{sqlite3.AUTH_SELECT, "", "", sqlite3.AUTH_OK},
		{sqlite3.AUTH_READ, "orders", "id", sqlite3.AUTH_OK},
		{sqlite3.AUTH_READ, "sqlite_dbpage", "data", sqlite3.AUTH_DENY},
		{sqlite3.AUTH_RECURSIVE, "", "", sqlite3.AUTH_OK},
		{sqlite3.AUTH_FUNCTION, "", "lower", sqlite3.AUTH_OK},
		{sqlite3.AUTH_FUNCTION, "", "randomblob", sqlite3.AUTH_DENY},
		{sqlite3.AUTH_PRAGMA, "table_info", "orders", sqlite3.AUTH_OK},
		{sqlite3.AUTH_PRAGMA, "query_only", "0", sqlite3.AUTH_DENY},
		{sqlite3.AUTH_ATTACH, "x.db", "", sqlite3.AUTH_DENY},
		{sqlite3.AUTH_TRANSACTION, "BEGIN", "", sqlite3.AUTH_DENY},
		{sqlite3.AUTH_INSERT, "sqlite_temp_master", "", sqlite3.AUTH_DENY},
	}
	for _, c := range cases {
		if r := auth(c.action, c.n3, c.n4, "main", ""); r != c.want {
			t.Errorf("action %d %q %q = %d, want %d", c.action, c.n3, c.n4, r, c.want)
		}
	}
	want := []string{"READ sqlite_dbpage data", "function randomblob()", "PRAGMA query_only 0", "ATTACH x.db", "TRANSACTION BEGIN", "INSERT INTO sqlite_temp_master"}
	if len(got) != len(want) {
		t.Fatalf("denials %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("denial %d = %q, want %q", i, got[i], want[i])
		}
	}
}
