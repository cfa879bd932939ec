package mcpserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func serveHTTP(t *testing.T) string {
	t.Helper()
	return serveHTTPWith(t, HTTPOptions{})
}

func serveHTTPWith(t *testing.T, opts HTTPOptions) string {
	t.Helper()
	conn, g := openShop(t)
	srv, err := NewConnector(ConnectorConfig{Exec: conn, Guard: g, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h, err := HTTPHandler(srv, ln.Addr().String(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestHTTPServesMCP(t *testing.T) {
	base := serveHTTP(t)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + HTTPPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	got := decode[Result](t, call(t, cs, "run_query", map[string]any{"sql": "SELECT count(*) AS n FROM orders"}))
	if got.Rows[0][0] != 3000.0 {
		t.Errorf("count = %v", got.Rows[0][0])
	}
	wantToolError(t, call(t, cs, "run_query", map[string]any{"sql": "DELETE FROM orders"}), "the guard rejected")
}

func TestHTTPRefusesForeignHostsAndOrigins(t *testing.T) {
	base := serveHTTP(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, tc := range []struct {
		name   string
		host   string
		origin string
		want   int
	}{
		{"rebinding", "evil.example:80", "", http.StatusForbidden},
		{"cross-origin", "", "http://evil.example", http.StatusForbidden},
		{"other path", "", "", http.StatusNotFound},
	} {
		path := HTTPPath
		if tc.name == "other path" {
			path = "/"
		}
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
			req.Header.Set("Sec-Fetch-Site", "cross-site")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
	if _, err := HTTPHandler(nil, "127.0.0.1:0", HTTPOptions{}); err == nil {
		t.Error("an unbound port was accepted")
	}
}

// TestHTTPCapsSessions opens sessions with the SDK's client up to the
// cap: one more is refused with a message that says what to do, and
// closing one frees its slot.
func TestHTTPCapsSessions(t *testing.T) {
	base := serveHTTPWith(t, HTTPOptions{MaxSessions: 3, Raise: "--max-sessions"})
	ctx := context.Background()
	connect := func() (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + HTTPPath}, nil)
	}
	var open []*mcp.ClientSession
	t.Cleanup(func() {
		for _, cs := range open {
			cs.Close()
		}
	})
	for i := range 3 {
		cs, err := connect()
		if err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		open = append(open, cs)
	}
	_, err := connect()
	t.Logf("refused: %v", err)
	if err == nil || !strings.Contains(err.Error(), "already has 3 MCP sessions open") || !strings.Contains(err.Error(), "raise --max-sessions") {
		t.Fatalf("the fourth session: %v", err)
	}
	// The open sessions still work.
	if got := decode[Result](t, call(t, open[0], "run_query", map[string]any{"sql": "SELECT 1 AS n"})); got.Rows[0][0] != 1.0 {
		t.Errorf("rows = %v", got.Rows)
	}
	// Closing one (the client sends DELETE) frees a slot.
	open[2].Close()
	open = open[:2]
	deadline := time.Now().Add(5 * time.Second)
	for {
		cs, err := connect()
		if err == nil {
			open = append(open, cs)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot after closing a session: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHTTPClosesIdleSessions: a session with no request for the idle
// timeout is closed and its slot freed.
func TestHTTPClosesIdleSessions(t *testing.T) {
	base := serveHTTPWith(t, HTTPOptions{MaxSessions: 1, SessionIdleTimeout: 200 * time.Millisecond})
	ctx := context.Background()
	connect := func() (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + HTTPPath}, nil)
	}
	cs, err := connect()
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		cs2, err := connect()
		if err == nil {
			cs2.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle session still holds the only slot: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
