package httpserve_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/httpserve"
	"github.com/quarrydata/quarry/internal/mcpserver"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	sqlitestate "github.com/quarrydata/quarry/internal/store/sqlite"
)

// readTimeout is the bound the tests serve with: short, so that they are
// fast, and long enough for a loaded machine to send a whole request.
const readTimeout = 400 * time.Millisecond

// serve starts hs on a listener already bound (the handlers need the
// address), and stops it when the test ends.
func serve(t *testing.T, ln net.Listener, h http.Handler) string {
	t.Helper()
	hs := httpserve.New(h, httpserve.Limits{ReadTimeout: readTimeout, IdleTimeout: time.Second, MaxHeaderBytes: 8 << 10})
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// apiServer serves quarry serve's real handler, with a run that never
// gets to start (the tests only send requests that cannot finish).
func apiServer(t *testing.T) string {
	t.Helper()
	st, err := sqlitestate.Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ln := listen(t)
	model := &semantic.Model{}
	srv, err := httpapi.New(httpapi.Config{
		Start: func(context.Context) (httpapi.Runner, func(), error) {
			return nil, nil, quarry.Errorf(quarry.KindConfig, "no connection in this test")
		},
		Ask: func(context.Context, *event.Recorder, string, time.Time, agent.AskOptions) (*analyst.AskOutcome, error) {
			return nil, quarry.Errorf(quarry.KindConfig, "no connection in this test")
		},
		Knowledge: func(context.Context) (*analyst.Knowledge, error) {
			return &analyst.Knowledge{Model: model, Planner: planner.New(model, nil)}, nil
		},
		Store: st,
		Addr:  ln.Addr().String(),
		Clock: time.Now,
		NewID: func(p string) string { return p + "1" },
	})
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, ln, srv.Handler())
}

// mcpServer serves quarry mcp's real streamable HTTP handler around a
// server with one tool that streams for longer than the read timeout.
func mcpServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(3 * readTimeout):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	ln := listen(t)
	h, err := mcpserver.HTTPHandler(srv, ln.Addr().String(), mcpserver.HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, ln, h)
}

// trickle sends a request whose body never finishes, one byte every
// 100ms, and returns how long the server kept the connection open.
func trickle(t *testing.T, addr, path string, extra string) (time.Duration, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	start := time.Now()
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%sContent-Length: 1000\r\n\r\n{", path, addr, extra)
	if _, err := io.WriteString(c, head); err != nil {
		return 0, err
	}
	closed := make(chan time.Duration, 1)
	go func() {
		// Whatever the server answers, it must then close the connection.
		io.Copy(io.Discard, c)
		closed <- time.Since(start)
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	limit := time.After(5 * time.Second)
	for {
		select {
		case d := <-closed:
			return d, nil
		case <-tick.C:
			c.Write([]byte(" ")) // errors once the server has closed; the reader says when
		case <-limit:
			return time.Since(start), errors.New("the server still held the connection after 5s")
		}
	}
}

// TestTrickledBodiesAreCut: a request whose body trickles in is cut off
// at the read timeout, by both servers, for one connection and for many
// at once.
func TestTrickledBodiesAreCut(t *testing.T) {
	for _, tc := range []struct {
		name, path, headers string
		addr                func(*testing.T) string
	}{
		{"serve", "/api/run", "", apiServer},
		{"mcp", mcpserver.HTTPPath, "Accept: application/json, text/event-stream\r\n", mcpServer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := tc.addr(t)
			d, err := trickle(t, addr, tc.path, tc.headers)
			if err != nil {
				t.Fatal(err)
			}
			if d < readTimeout/2 || d > readTimeout+time.Second {
				t.Errorf("the connection was closed after %s; want about %s", d, readTimeout)
			}
			const many = 100
			var wg sync.WaitGroup
			errs := make(chan error, many)
			for range many {
				wg.Add(1)
				go func() {
					defer wg.Done()
					d, err := trickle(t, addr, tc.path, tc.headers)
					if err == nil && d > readTimeout+2*time.Second {
						err = fmt.Errorf("closed after %s", d)
					}
					if err != nil {
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// TestTrickledHeadersAreCut: headers that never end are cut off too.
func TestTrickledHeadersAreCut(t *testing.T) {
	addr := apiServer(t)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	io.WriteString(c, "GET /api/runs HTTP/1.1\r\nHost: "+addr+"\r\n")
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, c)
		close(done)
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			if d := time.Since(start); d > readTimeout+time.Second {
				t.Errorf("closed after %s", d)
			}
			return
		case <-tick.C:
			io.WriteString(c, "X-A: b\r\n")
		case <-time.After(5 * time.Second):
			t.Fatal("the server still held the connection after 5s")
		}
	}
}

// TestLargeHeadersAreRefused: a header block over MaxHeaderBytes gets 431.
func TestLargeHeadersAreRefused(t *testing.T) {
	addr := apiServer(t)
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/api/runs", nil)
	req.Header.Set("X-Big", strings.Repeat("a", 64<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("status %d", resp.StatusCode)
	}
}

// TestLongResponsesOutliveTheReadTimeout: the read timeout bounds reading
// the request only. A tool call that answers after three read timeouts,
// over an MCP session, and an event stream that stays open, still work.
func TestLongResponsesOutliveTheReadTimeout(t *testing.T) {
	addr := mcpServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + mcpserver.HTTPPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 2 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || res.Content[0].(*mcp.TextContent).Text != "done" {
			t.Fatalf("result = %+v", res)
		}
	}
}

// TestStreamedBodyAfterHeaders: a plain handler that streams its answer
// for longer than the read timeout, after reading a whole body, is not
// cut off and its request context stays alive.
func TestStreamedAnswerAfterBody(t *testing.T) {
	ln := listen(t)
	addr := serve(t, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		for i := range 6 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(readTimeout / 2):
			}
			fmt.Fprintf(w, "line %d\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	resp, err := http.Post("http://"+addr+"/", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n := 0
	for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
		n++
	}
	if n != 6 {
		t.Errorf("got %d lines of 6", n)
	}
}
