package mcpserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func serveHTTP(t *testing.T) string {
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
	h, err := HTTPHandler(srv, ln.Addr().String())
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
	if _, err := HTTPHandler(nil, "127.0.0.1:0"); err == nil {
		t.Error("an unbound port was accepted")
	}
}
