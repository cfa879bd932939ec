package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/ids"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// asOf anchors relative dates in the tests.
const asOf = "2025-12-31"

// shopDB creates a SQLite database of 3,000 orders of 2025 and returns its
// path. Every order has a customer e-mail, a restricted column.
func shopDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Exec(`
CREATE TABLE orders (id INTEGER PRIMARY KEY, ordered_at TIMESTAMP, amount REAL, status TEXT, country TEXT, email TEXT);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 3000)
INSERT INTO orders SELECT x, datetime('2025-01-01', '+' || (x % 365) || ' days'), round(x % 97 * 1.5, 2),
  CASE x % 4 WHEN 0 THEN 'refunded' ELSE 'completed' END,
  CASE x % 3 WHEN 0 THEN 'Finland' WHEN 1 THEN 'Germany' ELSE 'Spain' END,
  'person' || x || '@example.com' FROM s;`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// openShop opens the shop read-only with the real SQLite guard.
func openShop(t *testing.T) (*sqlite.Conn, analyst.Guard) {
	return openShopWith(t, nil)
}

// openShopWith opens the shop as quarry's commands do for a project with
// policy p: the connection's authorizer refuses restricted columns, and
// the guard's engine check prepares on a second connection to the real
// schema.
func openShopWith(t *testing.T, p *policy.Policy) (*sqlite.Conn, analyst.Guard) {
	t.Helper()
	path := shopDB(t)
	conn, err := sqlite.Open(context.Background(), path, sqlite.Options{Name: "shop", Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	check, err := sqlite.Open(context.Background(), path, sqlite.Options{Name: "shop", Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { check.Close() })
	g, err := guard.New(sqlguard.Options{Dialect: quarry.DialectSQLite})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return conn, g.OnConn(check)
}

// connect connects a client to srv over in-memory transports.
func connect(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// project is a project server over the shop, as quarry mcp wires it.
type project struct {
	cs *mcp.ClientSession
	st *sqlitestate.Store
}

func newProject(t *testing.T) *project {
	t.Helper()
	ctx := context.Background()
	f, err := knowledge.Load("testdata/knowledge")
	if err != nil {
		t.Fatal(err)
	}
	conn, g := openShopWith(t, policy.FromModel(f.Model))
	st, err := sqlitestate.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var verified []Verified
	var pv []planner.Verified
	for _, v := range f.Verified {
		verified = append(verified, Verified{Question: v.Question, SQL: v.SQL})
		pv = append(pv, planner.Verified{Question: v.Question, SQL: v.SQL})
	}
	k := &analyst.Knowledge{Model: f.Model, Planner: planner.New(f.Model, pv), Hash: f.Hash, Currency: "$"}
	an := &analyst.Analyst{Conn: conn, Guard: g, Results: st, Limits: analyst.Limits{MaxRows: 100_000}, Connection: "shop", Clock: time.Now}
	cat, err := conn.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{
		Ask: func(ctx context.Context, rec *event.Recorder, q string, day time.Time) (*analyst.AskOutcome, error) {
			return an.Ask(ctx, rec, k, q, day)
		},
		Run: an.Run,
		Project: func(context.Context) (*Project, error) {
			return &Project{Knowledge: k, Verified: verified, Policy: policy.FromModel(f.Model)}, nil
		},
		Catalog:    cat,
		Connection: "shop",
		Dialect:    quarry.DialectSQLite,
		Store:      st,
		Clock:      time.Now,
		NewID:      func(p string) string { return ids.New(p, time.Now(), rand.Reader) },
		Version:    "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	return &project{cs: connect(t, srv), st: st}
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// decode reads a tool result's structured content into T, failing the
// test when the call was an error.
func decode[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	var v T
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return v
}

// text is a tool result's text content.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toolError asserts that res is a one-line tool error containing want.
func wantToolError(t *testing.T, res *mcp.CallToolResult, want string) {
	t.Helper()
	msg := text(res)
	if !res.IsError {
		t.Fatalf("not an error: %s", msg)
	}
	if !strings.Contains(msg, want) {
		t.Errorf("error %q does not say %q", msg, want)
	}
	if strings.Contains(msg, "\n") || strings.Contains(msg, "goroutine") {
		t.Errorf("error is not one line: %q", msg)
	}
}
