package mcpconn

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// serverEnv names the kind of server the test binary runs as a child.
const serverEnv = "MCPCONN_TEST_SERVER"

// dbEnv is the SQLite file a child server reads.
const dbEnv = "MCPCONN_TEST_DB"

// secretEnv holds a secret the stderr-secret server repeats.
const secretEnv = "MCPCONN_TEST_SECRET"

// stderrEnv is what the crash-with server writes on stderr before it
// exits with status 1.
const stderrEnv = "MCPCONN_TEST_STDERR"

func TestMain(m *testing.M) {
	if kind := os.Getenv(serverEnv); kind != "" {
		os.Exit(runChild(kind))
	}
	os.Exit(m.Run())
}

// runChild runs one kind of MCP server on stdin and stdout.
func runChild(kind string) int {
	ctx := context.Background()
	switch kind {
	case "crash":
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "fatal: cannot open the database")
		return 3
	case "crash-with":
		fmt.Fprint(os.Stderr, os.Getenv(stderrEnv))
		return 1
	case "stderr-secret":
		fmt.Fprintln(os.Stderr, "fatal: cannot log in with password "+os.Getenv(secretEnv))
		return 1
	case "hang":
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "garbage":
		fmt.Println("Listening on stdio, ready for queries")
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "nonutf8":
		os.Stdout.Write([]byte("{\"jsonrpc\":\"2.0\",\"id\":\xff\xfe}\n"))
		io.Copy(io.Discard, os.Stdin)
		return 0
	}
	if os.Getenv("HOME") != "" {
		fmt.Fprintln(os.Stderr, "HOME leaked into the server's environment")
		return 2
	}
	if code, ok := runPipedChild(kind); ok {
		return code
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "test-" + kind, Version: "1"}, nil)
	switch kind {
	case "good":
		// A plain read-only handle: the catalog query reads
		// pragma_table_info, which quarry's own connector refuses.
		db, err := sqlite3.OpenFlags(os.Getenv(dbEnv), sqlite3.OPEN_READONLY)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer db.Close()
		addSQLTool(s, "run_query", "sql", rawTool(db))
	case "huge":
		addSQLTool(s, "run_query", "sql", func(string) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "n\n" + strings.Repeat("1\n", 50_000)}}}, nil
		})
	case "slow-tool":
		addSQLTool(s, "run_query", "sql", func(string) (*mcp.CallToolResult, error) {
			time.Sleep(time.Hour)
			return nil, nil
		})
	case "binary", "binary-bomb", "binary-nulls":
		// quarry's connector pair: run_query answers JSON, its binary
		// twin the encoded result; the JSON one says so, so that a test
		// can tell which answered.
		addSQLTool(s, "run_query", "sql", textTool("source\njson\n"))
		addSQLTool(s, connector.BinaryQueryTool, "sql", func(string) (*mcp.CallToolResult, error) {
			enc, _ := quarry.EncodeTable(&quarry.Table{Columns: []quarry.Column{{Name: "source", Type: quarry.TypeText}, {Name: "at", Type: quarry.TypeTimestamp}},
				Rows: [][]any{{"binary", time.Date(2026, 6, 30, 9, 30, 0, 0, time.UTC)}}})
			if kind == "binary-nulls" {
				// 30 million NULLs of one column: 30 MB, a few kilobytes
				// compressed, gigabytes if all were decoded.
				var b bytes.Buffer
				b.WriteString("quarry-result/1\n\x01\x01n\x03int\x00")
				b.Write(binary.AppendUvarint(nil, 30_000_000))
				b.Write(bytes.Repeat([]byte{'n'}, 30_000_000))
				enc = b.Bytes()
			}
			if kind == "binary-bomb" {
				// Zeros past the size a result may have inflate from a
				// blob of a few kilobytes.
				enc = make([]byte, 40<<20)
			}
			var z bytes.Buffer
			fw, _ := flate.NewWriter(&z, flate.BestCompression)
			fw.Write(enc)
			fw.Close()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "quarry://result", MIMEType: connector.ResultMIME, Blob: z.Bytes(), Meta: mcp.Meta{"truncated": true}}}}}, nil
		})
	case "two-tools":
		addSQLTool(s, "pg_sql", "sql", textTool("n\n1\n"))
		addSQLTool(s, "lite_sql", "sql", textTool("n\n1\n"))
	default:
		fmt.Fprintln(os.Stderr, "unknown test server", kind)
		return 1
	}
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// addSQLTool adds a tool taking one string argument.
func addSQLTool(s *mcp.Server, name, arg string, run func(sql string) (*mcp.CallToolResult, error)) {
	schema := map[string]any{"type": "object", "properties": map[string]any{arg: map[string]any{"type": "string"}}, "required": []string{arg}}
	s.AddTool(&mcp.Tool{Name: name, InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args map[string]any
		json.Unmarshal(req.Params.Arguments, &args)
		sql, _ := args[arg].(string)
		return run(sql)
	})
}

func textTool(text string) func(string) (*mcp.CallToolResult, error) {
	return func(string) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
}

// connTool runs the SQL on a quarry connector and answers {columns, rows}
// as structured content, or isError with the connector's message.
func connTool(db connector.Conn) func(string) (*mcp.CallToolResult, error) {
	return func(sql string) (*mcp.CallToolResult, error) {
		rs, err := db.Query(context.Background(), sql, connector.QueryOptions{})
		if err != nil {
			return errResult(quarry.Message(err)), nil
		}
		defer rs.Close()
		cols := []string{}
		for _, c := range rs.Columns() {
			cols = append(cols, c.Name)
		}
		rows := [][]any{}
		for rs.Next() {
			rows = append(rows, append([]any(nil), rs.Values()...))
		}
		if err := rs.Err(); err != nil {
			return errResult(quarry.Message(err)), nil
		}
		return &mcp.CallToolResult{StructuredContent: map[string]any{"columns": cols, "rows": rows}, Content: []mcp.Content{&mcp.TextContent{Text: "see structured content"}}}, nil
	}
}

// rawTool runs the SQL on a read-only SQLite handle and answers
// {columns, rows} as structured content.
func rawTool(db *sqlite3.Conn) func(string) (*mcp.CallToolResult, error) {
	return func(sql string) (*mcp.CallToolResult, error) {
		stmt, _, err := db.Prepare(sql)
		if err != nil {
			return errResult(err.Error()), nil
		}
		defer stmt.Close()
		cols := []string{}
		for i := range stmt.ColumnCount() {
			cols = append(cols, stmt.ColumnName(i))
		}
		rows := [][]any{}
		for stmt.Step() {
			row := make([]any, len(cols))
			for i := range cols {
				switch stmt.ColumnType(i) {
				case sqlite3.INTEGER:
					row[i] = stmt.ColumnInt64(i)
				case sqlite3.FLOAT:
					row[i] = stmt.ColumnFloat(i)
				case sqlite3.NULL:
				default:
					row[i] = stmt.ColumnText(i)
				}
			}
			rows = append(rows, row)
		}
		if err := stmt.Err(); err != nil {
			return errResult(err.Error()), nil
		}
		return &mcp.CallToolResult{StructuredContent: map[string]any{"columns": cols, "rows": rows}}, nil
	}
}

func errResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// shopDB creates a small SQLite database and returns its path.
func shopDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), amount REAL);
INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace');
INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 20), (3, 2, 7.25);`); err != nil {
		t.Fatal(err)
	}
	return path
}

// serveHTTP serves an MCP server over streamable HTTP for the test.
func serveHTTP(t *testing.T, s *mcp.Server) string {
	t.Helper()
	return serveHandler(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
}

// serveHandler serves h and returns its /mcp address.
func serveHandler(t *testing.T, h http.Handler) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}
