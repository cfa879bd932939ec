package mcpconn

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/quarry"
)

const secret = "s3cr3t-hunter2-value"

// child returns options that start the test binary as a server of kind.
func child(t *testing.T, kind string, extra ...string) Options {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append([]string{serverEnv + "=" + kind, secretEnv + "=" + secret}, extra...)
	return Options{Name: "shop", Command: exe, Env: env, Dir: t.TempDir(), ConnectTimeout: 20 * time.Second, Dialect: quarry.DialectSQLite}
}

func open(t *testing.T, opts Options) *Conn {
	t.Helper()
	c, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func readAll(t *testing.T, rs quarry.Rows) ([]string, [][]any) {
	t.Helper()
	defer rs.Close()
	var names []string
	for _, c := range rs.Columns() {
		names = append(names, c.Name)
	}
	var out [][]any
	for rs.Next() {
		out = append(out, append([]any(nil), rs.Values()...))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return names, out
}

// expectErr checks an error's kind and that its message holds every part
// and no secret.
func expectErr(t *testing.T, err error, kind quarry.Kind, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", kind)
	}
	var qe *quarry.Error
	if !errors.As(err, &qe) || qe.Kind != kind {
		t.Errorf("error %v (kind %s), want kind %s", err, quarry.KindOf(err), kind)
	}
	msg := err.Error()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not say %q", msg, p)
		}
	}
	if strings.Contains(msg, secret) || strings.ContainsAny(msg, "\r\n") {
		t.Errorf("error %q reveals a secret or is not one line", msg)
	}
}

// gone reports whether no process has the pid any more.
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func pidOf(c *Conn) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil || c.sess.proc == nil {
		return 0
	}
	return c.sess.proc.cmd.Process.Pid
}

func TestStdioRoundTrip(t *testing.T) {
	c := open(t, child(t, "good", dbEnv+"="+shopDB(t)))
	rs, err := c.Query(context.Background(), "SELECT id, amount FROM orders ORDER BY id", connector.QueryOptions{MaxRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	names, got := readAll(t, rs)
	if diff := cmp.Diff([]string{"id", "amount"}, names); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if len(got) != 2 || !rs.(connector.Truncator).Truncated() {
		t.Errorf("rows = %v, truncated %v; want 2, truncated", got, rs.(connector.Truncator).Truncated())
	}
	cat, err := c.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Tables) != 2 || cat.Tables[0].Name != "customers" || cat.Tables[1].Column("amount") == nil || cat.Tables[1].Column("amount").Type != quarry.TypeFloat || cat.Tables[0].RowCount != -1 {
		t.Errorf("catalog = %+v", cat)
	}
	_, err = c.Query(context.Background(), "SELECT nope FROM orders", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, "the server reported an error", "nope")
	id := c.Identity()
	if !strings.HasPrefix(id.Target, "stdio: ") || strings.Contains(id.Target, secret) || id.Dialect != quarry.DialectSQLite {
		t.Errorf("identity = %+v", id)
	}
	pid := pidOf(c)
	if pid == 0 {
		t.Fatal("no process")
	}
	c.Close()
	if !gone(pid) {
		t.Errorf("process %d is still there after Close", pid)
	}
}

func TestStdioCrashDuringInitialize(t *testing.T) {
	c := open(t, child(t, "crash"))
	start := time.Now()
	_, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	expectErr(t, err, quarry.KindConnection, "exit status 3", "fatal: cannot open the database")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestStdioSecretInStderr(t *testing.T) {
	_, err := open(t, child(t, "stderr-secret")).Catalog(context.Background())
	expectErr(t, err, quarry.KindConnection, "exit status 1", "[redacted]")
}

func TestStdioNeverInitializes(t *testing.T) {
	opts := child(t, "hang")
	opts.ConnectTimeout = 300 * time.Millisecond
	c := open(t, opts)
	start := time.Now()
	_, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	expectErr(t, err, quarry.KindTimeout, "did not finish starting within 300ms")
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestStdioToolTimeoutKillsServer(t *testing.T) {
	c := open(t, child(t, "slow-tool"))
	// Start the session first, to learn the pid.
	if _, err := c.session(context.Background()); err != nil {
		t.Fatal(err)
	}
	pid := pidOf(c)
	_, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{Timeout: 200 * time.Millisecond})
	expectErr(t, err, quarry.KindTimeout, "did not answer within 200ms")
	if !gone(pid) {
		t.Errorf("process %d is still there after the timeout", pid)
	}
	if pidOf(c) != 0 {
		t.Error("the failed session is still held")
	}
	// The next call starts a new session (and times out again).
	_, err = c.Query(context.Background(), "SELECT 1", connector.QueryOptions{Timeout: 200 * time.Millisecond})
	expectErr(t, err, quarry.KindTimeout)
}

func TestStdioBadOutput(t *testing.T) {
	tests := []struct {
		kind     string
		maxBytes int64
		want     quarry.Kind
		says     string
	}{
		{"garbage", 0, quarry.KindConnection, "not MCP JSON-RPC: Listening on stdio, ready for queries"},
		{"nonutf8", 0, quarry.KindConnection, "not UTF-8"},
		{"huge", 8 << 10, quarry.KindQuery, "larger than 8192 bytes; add a LIMIT or aggregate"},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			opts := child(t, tt.kind)
			opts.MaxBytes = tt.maxBytes
			c := open(t, opts)
			_, err := c.Query(context.Background(), "SELECT 1", connector.QueryOptions{Timeout: 10 * time.Second})
			expectErr(t, err, tt.want, tt.says)
		})
	}
}

func TestStdioToolDiscoveryErrors(t *testing.T) {
	_, err := open(t, child(t, "two-tools")).Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	expectErr(t, err, quarry.KindConfig, "several tools", "lite_sql, pg_sql", "set tool:")
	opts := child(t, "two-tools")
	opts.Tool = "run_sql"
	_, err = open(t, opts).Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	expectErr(t, err, quarry.KindConfig, `the server has no tool "run_sql"; it offers: lite_sql, pg_sql — set tool: to one of them`)
	opts.Tool = "pg_sql"
	rs, err := open(t, opts).Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := readAll(t, rs); len(got) != 1 {
		t.Errorf("rows = %v", got)
	}
}

func TestCommandNotFound(t *testing.T) {
	opts := child(t, "good")
	opts.Command = "/nonexistent/mcp-server"
	_, err := open(t, opts).Query(context.Background(), "SELECT 1", connector.QueryOptions{})
	expectErr(t, err, quarry.KindConfig, "cannot be found")
}

func TestOpenChecks(t *testing.T) {
	for _, o := range []Options{{Name: "x"}, {Name: "x", Command: "/bin/true", URL: "http://h/mcp"}, {Name: "x", Command: "relative"}, {Name: "x", URL: "ftp://h/mcp"}} {
		if _, err := Open(context.Background(), o); quarry.KindOf(err) != quarry.KindConfig {
			t.Errorf("Open(%+v) = %v, want a config error", o, err)
		}
	}
}

// httpSQLite is an HTTP MCP server with a SQL tool over a real read-only
// SQLite database.
func httpSQLite(t *testing.T, tool, arg string) *mcp.Server {
	t.Helper()
	db, err := sqlite.Open(context.Background(), shopDB(t), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	addSQLTool(s, tool, arg, connTool(db))
	return s
}

// TestBinaryTwin: a server that offers run_query and its binary twin is
// asked through the twin, whose values keep their types (a time stays a
// time) and whose truncation is kept; a twin whose answer would inflate
// past the size a result may have is refused, not read.
func TestBinaryTwin(t *testing.T) {
	ctx := context.Background()
	c := open(t, child(t, "binary"))
	rs, err := c.Query(ctx, "SELECT 1", connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := rs.(connector.Truncator)
	cols, rows := readAll(t, rs)
	if len(rows) != 1 || rows[0][0] != "binary" || len(cols) != 2 {
		t.Fatalf("columns %v rows %v, want the binary tool's one row", cols, rows)
	}
	if at, ok := rows[0][1].(time.Time); !ok || !at.Equal(time.Date(2026, 6, 30, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("at = %#v, want the time itself", rows[0][1])
	}
	if tr == nil || !tr.Truncated() {
		t.Error("the result's truncation was lost")
	}
	t.Run("limits", func(t *testing.T) {
		if raceEnabled {
			// Tens of megabytes compressed by the server and inflated on
			// one goroutine, which the race detector has nothing to say
			// of, at ten times the cost (20 s).
			t.Skip("runs in the plain test pass")
		}
		_, err := open(t, child(t, "binary-bomb")).Query(ctx, "SELECT 1", connector.QueryOptions{})
		expectErr(t, err, quarry.KindQuery, "larger than")
		// Thirty million NULLs: the rows a query may return are read, the
		// rest left; with no cap, the values are too many.
		nulls := open(t, child(t, "binary-nulls"))
		rs, err := nulls.Query(ctx, "SELECT 1", connector.QueryOptions{MaxRows: 100})
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := rs.(connector.Truncator)
		if _, rows := readAll(t, rs); len(rows) != 100 || !tr.Truncated() {
			t.Errorf("%d rows, want 100 and truncated", len(rows))
		}
		_, err = nulls.Query(ctx, "SELECT 1", connector.QueryOptions{})
		expectErr(t, err, quarry.KindQuery, "more than")
	})
}

// TestCheckDecoded: a binary result from a server that is not quarry's
// is held to what quarry's encoder writes.
func TestCheckDecoded(t *testing.T) {
	for _, tc := range []struct {
		cols []quarry.Column
		ok   bool
	}{
		{[]quarry.Column{{Name: "n", Type: quarry.TypeInt}, {Name: "?column?", Type: quarry.TypeText}, {Name: "tab\tx\nnl", Type: quarry.TypeText}}, true},
		{[]quarry.Column{{Name: "n", Type: "int; DROP"}}, false},
		{[]quarry.Column{{Name: "n\x1b[31m", Type: quarry.TypeInt}}, false},
		{[]quarry.Column{{Name: "n\xff", Type: quarry.TypeInt}}, false},
	} {
		err := checkDecoded(&quarry.Table{Columns: tc.cols})
		if (err == nil) != tc.ok {
			t.Errorf("%+v: error %v, want ok %v", tc.cols, err, tc.ok)
		}
	}
}
