package mcpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	quarryguard "github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/mcpserver"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/rowpipe"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// runPipedChild runs the servers of the result pipe's tests: quarry's own
// connector server on the test database ("piped"), the same with a pipe
// that never reaches the client ("piped-mute": a wrapper that did not
// pass it on), one that answers that it piped rows and sent none
// ("piped-liar"), one that writes something other than frames on it
// ("piped-garbage"), one that dies after the first part
// ("piped-crash"), and one whose end counts rows that never came
// ("piped-short").
func runPipedChild(kind string) (int, bool) {
	ctx := context.Background()
	// pipe is the result pipe the client gave, its hello said.
	pipe := func() (*rowpipe.Writer, *os.File) {
		f, token, ok := rowpipe.Inherited(os.Getenv(rowpipe.EnvVar))
		if !ok {
			fmt.Fprintln(os.Stderr, "fatal: no result pipe")
			os.Exit(4)
		}
		w, err := rowpipe.NewWriter(f, token)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fatal:", err)
			os.Exit(4)
		}
		return w, f
	}
	var srv *mcp.Server
	switch kind {
	case "piped", "piped-mute":
		path := os.Getenv(dbEnv)
		conn, err := sqlite.Open(ctx, path, sqlite.Options{Name: "shop"})
		if err != nil {
			fmt.Fprintln(os.Stderr, "fatal:", err)
			return 1, true
		}
		check, err := sqlite.Open(ctx, path, sqlite.Options{Name: "shop"})
		if err != nil {
			fmt.Fprintln(os.Stderr, "fatal:", err)
			return 1, true
		}
		g, err := quarryguard.New(sqlguard.Options{Dialect: quarry.DialectSQLite})
		if err != nil {
			fmt.Fprintln(os.Stderr, "fatal:", err)
			return 1, true
		}
		var w *rowpipe.Writer
		if kind == "piped" {
			w, _ = pipe()
		} else {
			w, _ = rowpipe.NewWriter(io.Discard, "not the client's")
		}
		srv, err = mcpserver.NewConnector(mcpserver.ConnectorConfig{Name: "shop", Exec: conn, Guard: g.OnConn(check), MaxRows: 100000, Pipe: w})
		if err != nil {
			fmt.Fprintln(os.Stderr, "fatal:", err)
			return 1, true
		}
	case "piped-garbage", "piped-liar", "piped-crash", "piped-short":
		w, f := pipe()
		srv = mcp.NewServer(&mcp.Implementation{Name: "test-" + kind, Version: "1"}, nil)
		addSQLTool(srv, "run_query", "sql", textTool("source\njson\n"))
		schema := map[string]any{"type": "object", "properties": map[string]any{"sql": map[string]any{"type": "string"}, "call": map[string]any{"type": "integer"}}}
		srv.AddTool(&mcp.Tool{Name: rowpipe.Tool, InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Call uint64 }
			json.Unmarshal(req.Params.Arguments, &in)
			switch kind {
			case "piped-garbage":
				f.Write([]byte("Listening on the pipe, ready!\n"))
			case "piped-crash":
				part, _ := quarry.EncodeTable(&quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}, Rows: [][]any{{int64(1)}}})
				w.Rows(in.Call, part)
				fmt.Fprintln(os.Stderr, "fatal: the disk went away")
				os.Exit(3)
			case "piped-short":
				part, _ := quarry.EncodeTable(&quarry.Table{Columns: []quarry.Column{{Name: "n", Type: quarry.TypeInt}}, Rows: [][]any{{int64(1)}}})
				w.Rows(in.Call, part)
				w.End(in.Call, rowpipe.End{Rows: 2})
			}
			// The liar: says it piped rows and sent none.
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sent"}}, Meta: mcp.Meta{"piped": true}}, nil
		})
	default:
		return 0, false
	}
	if err := srv.Run(ctx, &mcp.StdioTransport{}); err != nil {
		return 1, true
	}
	return 0, true
}

// manyRows is a statement of n rows of several types.
func manyRows(n int) string {
	return fmt.Sprintf("WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < %d) "+
		"SELECT x, x * 1.5 AS half, 'row ' || x AS label, CASE WHEN x %% 7 = 0 THEN NULL ELSE x END AS maybe, CASE WHEN x %% 3 = 0 THEN X'DEADBEEF' END AS b FROM s", n)
}

// drain reads a query's rows to the end and returns its error, the
// query's own or the rows'.
func drain(rs quarry.Rows, err error) error {
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
	}
	return rs.Err()
}

// direct reads sql from the test database with quarry's own connector.
func direct(t *testing.T, path, sql string) [][]any {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Query(context.Background(), sql, connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readAll(t, rs)
	return rows
}

// TestPipedRoundTrip: a quarry connector server started by the client
// sends its rows on the result pipe: 12,000 rows in several parts read as
// the database holds them, the client's row cap truncates, its size
// limit stops, and the guard's refusal is the server's error.
func TestPipedRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := shopDB(t)
	c := open(t, child(t, "piped", dbEnv+"="+path))
	rs, err := c.Query(ctx, manyRows(12000), connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := c.session(ctx); s.piped != rowpipe.Tool {
		t.Fatalf("the session uses %q, not the result pipe", s.piped)
	}
	cols, got := readAll(t, rs)
	if diff := cmp.Diff([]string{"x", "half", "label", "maybe", "b"}, cols); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(direct(t, path, manyRows(12000)), got); diff != "" {
		t.Errorf("piped rows differ from a direct read (-direct +piped):\n%.2000s", diff)
	}
	if rs.(connector.Truncator).Truncated() {
		t.Error("all the rows, and truncated")
	}

	rs, err = c.Query(ctx, manyRows(12000), connector.QueryOptions{MaxRows: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := readAll(t, rs); len(got) != 5000 || !rs.(connector.Truncator).Truncated() {
		t.Errorf("a cap of 5,000: %d rows, truncated %v", len(got), rs.(connector.Truncator).Truncated())
	}

	rs, err = c.Query(ctx, manyRows(12000), connector.QueryOptions{MaxResultBytes: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	expectErr(t, drain(rs, nil), quarry.KindTooCostly, "max_result_bytes")

	// max_bytes bounds a piped answer as it bounds one in a message.
	small := child(t, "piped", dbEnv+"="+path)
	small.MaxBytes = 64 << 10
	expectErr(t, drain(open(t, small).Query(ctx, manyRows(12000), connector.QueryOptions{})), quarry.KindQuery, "larger than 65536 bytes")

	_, err = c.Query(ctx, "DELETE FROM orders", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, "the server reported an error", "guard")
	_, err = c.Query(ctx, "SELECT nope FROM orders", connector.QueryOptions{})
	expectErr(t, err, quarry.KindQuery, "the server reported an error", "nope")
	if rs, err := c.Query(ctx, "SELECT id FROM orders WHERE 0", connector.QueryOptions{}); err != nil {
		t.Fatal(err)
	} else if cols, rows := readAll(t, rs); len(cols) != 1 || len(rows) != 0 {
		t.Errorf("no rows: columns %v, rows %v", cols, rows)
	}
}

// TestPipedReadersAtOnce: results read at the same time on one session,
// and one left half read, each get their own rows; the session stays up.
func TestPipedReadersAtOnce(t *testing.T) {
	ctx := context.Background()
	path := shopDB(t)
	c := open(t, child(t, "piped", dbEnv+"="+path))
	// One left after ten rows: its remaining parts are read and left.
	rs, err := c.Query(ctx, manyRows(12000), connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pid := pidOf(c)
	for range 10 {
		rs.Next()
	}
	rs.Close()
	// One held open, half read, while two more are read in full.
	held, err := c.Query(ctx, manyRows(5000), connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		held.Next()
	}
	// One cut by the caller's row cap, its context canceled once the
	// caller is done, as a run's is, while another is read (found from
	// outside: the session was dropped under the other call).
	cut, cancel := context.WithCancel(ctx)
	first, err := c.Query(cut, manyRows(120000), connector.QueryOptions{MaxRows: 50})
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan int, 1)
	go func() {
		rs, err := c.Query(ctx, manyRows(8000), connector.QueryOptions{})
		if err != nil {
			t.Error(err)
			second <- 0
			return
		}
		_, rows := readAll(t, rs)
		second <- len(rows)
	}()
	if _, rows := readAll(t, first); len(rows) != 50 {
		t.Errorf("the capped result: %d rows", len(rows))
	}
	cancel()
	if n := <-second; n != 8000 {
		t.Errorf("the result read beside a capped one: %d rows", n)
	}
	want := direct(t, path, manyRows(8000))
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			rs, err := c.Query(ctx, manyRows(8000), connector.QueryOptions{})
			if err != nil {
				t.Error(err)
				return
			}
			if _, got := readAll(t, rs); !cmp.Equal(want, got) {
				t.Errorf("a reader at the same time as another got %d rows, not the 8,000 written", len(got))
			}
		})
	}
	wg.Wait()
	n := 100
	for held.Next() {
		n++
	}
	if held.Err() != nil || n != 5000 {
		t.Errorf("the held result: %d rows, %v", n, held.Err())
	}
	held.Close()
	if pidOf(c) != pid {
		t.Error("the server was started again")
	}
}

// TestPipedFallsBackOrFails: a server whose hello never reaches the client
// (a wrapper that kept the pipe) is asked through the binary tool; one
// that says it piped rows and sent none is stopped at the statement's
// timeout; one that dies mid-result says why. None hangs.
func TestPipedFallsBackOrFails(t *testing.T) {
	ctx := context.Background()
	path := shopDB(t)
	mute := open(t, child(t, "piped-mute", dbEnv+"="+path))
	rs, err := mute.Query(ctx, manyRows(100), connector.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, got := readAll(t, rs); !cmp.Equal(direct(t, path, manyRows(100)), got) {
		t.Errorf("through the binary tool: %d rows", len(got))
	}
	if s, _ := mute.session(ctx); s.piped != "" || s.binary == "" {
		t.Errorf("a server whose hello never came is asked through %q/%q", s.piped, s.binary)
	}

	start := time.Now()
	_, err = open(t, child(t, "piped-liar")).Query(ctx, "SELECT 1", connector.QueryOptions{Timeout: 500 * time.Millisecond})
	expectErr(t, err, quarry.KindTimeout)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}

	// Bytes that are not frames on a pipe still open (found from
	// outside: said to be a closed pipe).
	_, err = open(t, child(t, "piped-garbage")).Query(ctx, "SELECT 1", connector.QueryOptions{Timeout: 20 * time.Second})
	expectErr(t, err, quarry.KindQuery, "other than quarry's frames", "unknown kind")

	expectErr(t, drain(open(t, child(t, "piped-crash")).Query(ctx, "SELECT 1", connector.QueryOptions{Timeout: 20 * time.Second})), quarry.KindConnection, "exit status 3", "the disk went away")

	// An end that counts rows no part held: a part lost on the way is
	// no shorter result.
	expectErr(t, drain(open(t, child(t, "piped-short")).Query(ctx, "SELECT 1", connector.QueryOptions{Timeout: 20 * time.Second})), quarry.KindQuery, "says 2 rows were sent, and 1 came")
}
