package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearerTransport sends every request with an API token.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestQuarryMCPOverHTTPNeedsAToken: once the state has people, quarry mcp
// --http answers only MCP clients with a token of someone who may start
// runs, records them as the owner of their runs, and keeps a session to
// the person who opened it.
func TestQuarryMCPOverHTTPNeedsAToken(t *testing.T) {
	dir := project(t)
	tokens := map[string]string{}
	for _, u := range [][]string{{"bob", "analyst"}, {"dan", "analyst"}, {"vic", "viewer"}} {
		if r := quarryCmd(t, "", "-C", dir, "users", "add", u[0], "--role", u[1]); r.code != 0 {
			t.Fatalf("users add %s: %d %s", u[0], r.code, r.stderr)
		}
		r := quarryCmd(t, "", "-C", dir, "tokens", "create", "--user", u[0])
		if r.code != 0 {
			t.Fatalf("tokens create: %d %s", r.code, r.stderr)
		}
		tokens[u[0]] = strings.TrimSpace(r.stdout)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errR, errW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"-C", dir, "mcp", "--http", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, errW, func(string) (string, bool) { return "", false })
		errW.Close()
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errR)
		for sc.Scan() {
			if m := servingRE2.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("quarry mcp --http did not say where it serves")
	}
	connect := func(token string) (*mcp.ClientSession, error) {
		tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport{token}}, MaxRetries: -1}
		return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	}
	for who, token := range map[string]string{"nobody": "", "a viewer": tokens["vic"], "a made-up token": "qry_" + strings.Repeat("a", 52)} {
		if cs, err := connect(token); err == nil {
			cs.Close()
			t.Errorf("%s opened an MCP session", who)
		}
	}
	cs, err := connect(tokens["bob"])
	if err != nil {
		t.Fatal(err)
	}
	res, m := callJSON(t, cs, "run_query", map[string]any{"sql": "SELECT count(*) AS n FROM orders"})
	if res.IsError || m["row_count"] != 1.0 {
		t.Fatalf("run_query as bob: %s", textOf(res))
	}
	if st := lastRun(t, dir); st.Owner != "bob" {
		t.Errorf("the run's owner is %q, want bob", st.Owner)
	}
	// Dan's token on bob's session is refused.
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Authorization", "Bearer "+tokens["dan"])
	hres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	hres.Body.Close()
	if hres.StatusCode != http.StatusForbidden {
		t.Errorf("dan on bob's session: %d, want 403", hres.StatusCode)
	}
	cs.Close()
	cancel() // Ctrl-C
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit %d after Ctrl-C, want 0", c)
		}
	case <-time.After(15 * time.Second):
		t.Error("quarry mcp --http did not stop on Ctrl-C")
	}
}
