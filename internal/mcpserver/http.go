package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/httpserve"
	"github.com/quarrydata/quarry/internal/quarry"
)

// HTTPPath is where the streamable HTTP transport is served.
const HTTPPath = "/mcp"

// HTTPOptions bound the sessions of a streamable HTTP server.
type HTTPOptions struct {
	// MaxSessions is the most sessions open at once; a client that tries
	// to open one more is refused with an error that says so. 0 means
	// DefaultMaxSessions.
	MaxSessions int
	// SessionIdleTimeout closes a session that has had no request for
	// this long. 0 means DefaultSessionIdleTimeout.
	SessionIdleTimeout time.Duration
	// Raise says how the user raises MaxSessions, for the refusal: for
	// example "server.max_sessions in quarry.yaml". "" means that.
	Raise string
}

// Defaults of HTTPOptions.
const (
	DefaultMaxSessions        = 64
	DefaultSessionIdleTimeout = 30 * time.Minute
)

// HTTPHandler serves srv over the streamable HTTP transport at HTTPPath.
// addr is the bound address (host:port, as the listener reports it):
// requests whose Host header names anything else than it or localhost are
// refused (DNS rebinding protection), and so are cross-origin requests
// from browsers. srv must be served by this handler only: its sessions
// are what opts.MaxSessions counts.
func HTTPHandler(srv *mcp.Server, addr string, opts HTTPOptions) (http.Handler, error) {
	hosts, ok := httpserve.NewHosts(addr)
	if !ok {
		return nil, quarry.Errorf(quarry.KindUsage, "mcpserver: the bound address %q is not host:port", addr)
	}
	g := &hostGuard{hosts: hosts}
	if srv == nil {
		return nil, quarry.Errorf(quarry.KindInternal, "mcpserver: no server to serve")
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.SessionIdleTimeout <= 0 {
		opts.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if opts.Raise == "" {
		opts.Raise = "server.max_sessions in quarry.yaml"
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      opts.SessionIdleTimeout,
		MaxRequestBodyBytes: 4 << 20,
	})
	capped := &sessionCap{srv: srv, opts: opts, next: h}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, http.NewCrossOriginProtection().Handler(capped))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "quarry mcp: the MCP endpoint is "+HTTPPath, http.StatusNotFound)
	})
	g.next = mux
	return g, nil
}

// hostGuard refuses requests whose Host header is not the server's own.
type hostGuard struct {
	hosts httpserve.Hosts
	next  http.Handler
}

func (g *hostGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hosts.Allowed(r.Host) {
		http.Error(w, "Host "+r.Host+" is not this server; quarry answers only on its own address and localhost (DNS rebinding protection)", http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	g.next.ServeHTTP(w, r)
}

// sessionCap refuses a request that would open a session (an initialize
// request, which carries no Mcp-Session-Id) while MaxSessions are open.
// It counts the server's initialized sessions, which the SDK adds on
// initialize and removes when a session closes (DELETE, the idle timeout),
// plus the initialize requests in flight. Other requests without a
// session (the client's stateless server/discover probe) pass: the SDK
// answers them without keeping a session.
type sessionCap struct {
	srv  *mcp.Server
	opts HTTPOptions
	next http.Handler

	mu      sync.Mutex
	opening int
}

// sessionHeader is the streamable HTTP transport's session header.
const sessionHeader = "Mcp-Session-Id"

// maxInitialize bounds the bytes of an initialize request the cap reads to
// learn its method; the handler then reads the same bytes.
const maxInitialize = 1 << 20

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" || r.Body == nil {
		c.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxInitialize))
	if err != nil {
		http.Error(w, "quarry: cannot read the request", http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "initialize" {
		c.next.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	n := c.opening
	for ss := range c.srv.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	if n >= c.opts.MaxSessions {
		c.mu.Unlock()
		c.refuse(w, msg.ID)
		return
	}
	c.opening++
	c.mu.Unlock()
	// The request stops counting as opening once its answer starts: the
	// session it made is then among the server's sessions (the client may
	// open the next one before this handler returns).
	var once sync.Once
	done := func() {
		once.Do(func() {
			c.mu.Lock()
			c.opening--
			c.mu.Unlock()
		})
	}
	defer done()
	c.next.ServeHTTP(&answering{ResponseWriter: w, started: done}, r)
}

// answering is a ResponseWriter that says when the answer starts. It keeps
// the writer's Flush (streamed answers) and Unwrap (http.ResponseController).
type answering struct {
	http.ResponseWriter
	started func()
}

func (a *answering) WriteHeader(code int) {
	a.started()
	a.ResponseWriter.WriteHeader(code)
}

func (a *answering) Write(b []byte) (int, error) {
	a.started()
	return a.ResponseWriter.Write(b)
}

func (a *answering) Flush() {
	a.started()
	if f, ok := a.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (a *answering) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// refuse answers with a JSON-RPC error the client shows, under an HTTP
// status that clients do not retry on their own (the SDK's client treats
// 429 and 503 as transient and drops the message).
func (c *sessionCap) refuse(w http.ResponseWriter, reqID json.RawMessage) {
	// The reply carries the request's id, which clients need to match it.
	id := json.RawMessage("0")
	if len(reqID) > 0 && string(reqID) != "null" {
		id = reqID
	}
	msg := fmt.Sprintf("quarry: this server already has %d MCP sessions open, its limit; close a session you no longer use (sessions idle for %s close by themselves) or raise %s",
		c.opts.MaxSessions, c.opts.SessionIdleTimeout, c.opts.Raise)
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": -32000, "message": msg},
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	w.Write(body)
}
