package mcpconn

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Defaults for the zero values of Options.
const (
	DefaultMaxBytes       = 64 << 20
	DefaultConnectTimeout = 30 * time.Second
)

// protocolVersion is the MCP version quarry asks for: the newest one that
// every current server answers with the classic initialize handshake.
const protocolVersion = "2025-11-25"

// Options configure a connection. Exactly one of Command and URL is set.
type Options struct {
	// Name is the connection's name in quarry.yaml, for messages.
	Name string

	// Command is the absolute path of the server program to start, with
	// Args. Env is its whole environment (KEY=VALUE); values may hold
	// secrets. Dir is its working directory.
	Command string
	Args    []string
	Env     []string
	Dir     string

	// URL is the server's streamable HTTP endpoint; it may hold a secret.
	// Headers go with every request; values may hold secrets. HTTPClient
	// is the client to use; nil means a plain one.
	URL        string
	Headers    map[string]string
	HTTPClient *http.Client

	// Tool is the tool that runs SQL; "" means discovered. SQLArgument is
	// its argument that takes the statement; "" means discovered from the
	// tool's input schema. Arguments are sent with every call (the SQL
	// argument wins).
	Tool        string
	SQLArgument string
	Arguments   map[string]string

	// Dialect is the dialect of the database behind the server; "" means
	// generic.
	Dialect quarry.Dialect
	// MaxBytes caps one message from the server; 0 means DefaultMaxBytes.
	MaxBytes int64
	// ConnectTimeout bounds starting the session: the initialize handshake
	// and tool discovery. 0 means DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// Version is quarry's version, sent as the client implementation's.
	Version string
}

// Conn is a connection to an MCP SQL server. The session starts with the
// first Query or Catalog and is started again after it fails. Conn is safe
// for concurrent use.
type Conn struct {
	opts   Options
	target string
	red    *redactor

	mu     sync.Mutex
	sess   *session
	closed bool
}

// session is one live MCP session and what was learned while starting it.
type session struct {
	cs        *mcp.ClientSession
	proc      *process // nil over HTTP
	http      *httpGuard
	tool      string
	sqlArg    string
	binary    string      // the binary twin of tool (connector.BinaryQueryTool), or ""
	pipe      *pipeReader // the result pipe of a server quarry started, or nil
	piped     string      // rowpipe.Tool where the server says hello on pipe, or ""
	resources bool
	tools     []*mcp.Tool // what tools/list answered, for the catalog
	dropOnce  sync.Once
}

var _ connector.Conn = (*Conn)(nil)

// Open checks the options and returns a connection. It does not contact the
// server: the first Query or Catalog does.
func Open(ctx context.Context, opts Options) (*Conn, error) {
	switch {
	case opts.Command == "" && opts.URL == "":
		return nil, quarry.Errorf(quarry.KindConfig, "connection %q: give the server's command or url", opts.Name)
	case opts.Command != "" && opts.URL != "":
		return nil, quarry.Errorf(quarry.KindConfig, "connection %q: give the server's command or url, not both", opts.Name)
	}
	c := &Conn{}
	if opts.URL != "" {
		u, err := url.Parse(opts.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, quarry.Errorf(quarry.KindConfig, "connection %q: url must be an http:// or https:// address", opts.Name)
		}
		for k := range opts.Headers {
			if k == "" || strings.ContainsAny(k, " \t\r\n:") {
				return nil, quarry.Errorf(quarry.KindConfig, "connection %q: header name %q is not valid", opts.Name, short(k))
			}
		}
		c.target = u.Scheme + "://" + u.Host
	} else {
		if !filepath.IsAbs(opts.Command) {
			return nil, quarry.Errorf(quarry.KindConfig, "connection %q: the server's command %q is not an absolute path", opts.Name, short(opts.Command))
		}
		c.target = strings.TrimSpace("stdio: " + filepath.Base(opts.Command) + " " + strings.Join(opts.Args, " "))
	}
	if opts.Dialect == "" {
		opts.Dialect = quarry.DialectGeneric
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	c.opts = opts
	c.red = newRedactor(opts)
	return c, nil
}

// Dialect returns the configured dialect of the database behind the server.
func (c *Conn) Dialect() quarry.Dialect { return c.opts.Dialect }

// Identity describes the connection without secrets: the command's name
// and arguments, or the server's scheme and host.
func (c *Conn) Identity() connector.Identity {
	return connector.Identity{Name: c.opts.Name, Dialect: c.opts.Dialect, Target: c.target}
}

// Close ends the session; a server quarry started is stopped (its input
// closed, then SIGTERM, then SIGKILL) and waited for.
func (c *Conn) Close() error {
	c.mu.Lock()
	s := c.sess
	c.sess, c.closed = nil, true
	c.mu.Unlock()
	if s != nil {
		s.close(true)
	}
	return nil
}

func (s *session) close(gentle bool) {
	s.dropOnce.Do(func() {
		if s.proc != nil {
			s.proc.shutdown(gentle)
		}
		s.cs.Close()
		if s.pipe != nil {
			s.pipe.close()
		}
	})
}

// session returns the live session, starting one when there is none.
func (c *Conn) session(ctx context.Context) (*session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, quarry.Errorf(quarry.KindInternal, "connection %q: used after Close", c.opts.Name)
	}
	if c.sess != nil {
		return c.sess, nil
	}
	s, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	c.sess = s
	return s, nil
}

// drop closes a session that failed, so that the next call starts afresh.
func (c *Conn) drop(s *session) {
	c.mu.Lock()
	if c.sess == s {
		c.sess = nil
	}
	c.mu.Unlock()
	s.close(false)
}

// connect starts a session: the process or HTTP client, the initialize
// handshake, and tool discovery, all within ConnectTimeout.
func (c *Conn) connect(ctx context.Context) (*session, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	s := &session{}
	var transport mcp.Transport
	if c.opts.URL != "" {
		s.http = &httpGuard{max: c.opts.MaxBytes}
		transport = &mcp.StreamableClientTransport{
			Endpoint:             c.opts.URL,
			HTTPClient:           c.httpClient(s.http),
			MaxRetries:           -1,
			DisableStandaloneSSE: true,
			MaxEventSize:         int(min(c.opts.MaxBytes+1024, 1<<31-1)),
		}
	} else {
		p, t, err := start(&c.opts)
		if err != nil {
			return nil, startError(c.opts.Name, c.opts.Command, err)
		}
		s.proc, transport = p, t
		if p.pipe != nil {
			s.pipe = newPipeReader(p.pipe, p.token)
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "quarry", Version: c.opts.Version}, nil)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		if s.proc != nil {
			defer s.proc.shutdown(false)
		}
		if s.pipe != nil {
			defer s.pipe.close()
		}
		return nil, c.fail(ctx, s, err, "starting", c.opts.ConnectTimeout)
	}
	s.cs = cs
	if caps := cs.InitializeResult().Capabilities; caps != nil && caps.Resources != nil {
		s.resources = true
	}
	if err := c.discover(ctx, s); err != nil {
		s.close(false)
		return nil, err
	}
	return s, nil
}

// fail turns an error of the SDK into the user's terms: what the process
// or the HTTP guard saw, a timeout, a cancellation, or the server's own
// JSON-RPC error. what is what was being done ("starting", "answering").
func (c *Conn) fail(ctx context.Context, s *session, err error, what string, timeout time.Duration) error {
	name := c.opts.Name
	if s.proc != nil {
		if reason, kind := s.proc.why(c.red); reason != "" {
			return quarry.Errorf(kind, "connection %q: %s", name, reason)
		}
	}
	if s.http != nil {
		if reason, kind := s.http.why(); reason != "" {
			return quarry.Errorf(kind, "connection %q: %s", name, reason)
		}
	}
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
	canceled := errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, context.Canceled)
	if s.proc != nil && !timedOut && !canceled {
		if reason, kind := s.proc.exitReason(c.red); reason != "" {
			return quarry.Errorf(kind, "connection %q: %s", name, reason)
		}
	}
	switch {
	case timedOut:
		if what == "starting" {
			return quarry.Errorf(quarry.KindTimeout, "connection %q: the server did not finish starting within %s; check that it is an MCP server and that it starts on its own", name, timeout)
		}
		if timeout <= 0 {
			return quarry.Errorf(quarry.KindTimeout, "connection %q: the server did not answer in time", name)
		}
		return quarry.Errorf(quarry.KindTimeout, "connection %q: the server did not answer within %s", name, timeout)
	case canceled:
		return quarry.Errorf(quarry.KindCanceled, "connection %q: canceled", name)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return quarry.Errorf(quarry.KindConnection, "connection %q: the server at %s could not be reached: %s", name, c.target, c.red.clean(ue.Err.Error()))
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		if we.Code == jsonrpc.CodeInternalError && strings.Contains(we.Message, "transport") {
			return quarry.Errorf(quarry.KindConnection, "connection %q: the server at %s could not be reached: %s", name, c.target, c.red.clean(err.Error()))
		}
		return quarry.Errorf(quarry.KindQuery, "connection %q: the server reported an error: %s", name, c.red.clean(we.Message))
	}
	where := "the server"
	if s.proc == nil {
		where = "the server at " + c.target
	}
	if errors.Is(err, mcp.ErrConnectionClosed) {
		return quarry.Errorf(quarry.KindConnection, "connection %q: %s closed the connection while %s", name, where, what)
	}
	return quarry.Errorf(quarry.KindConnection, "connection %q: %s failed while %s: %s", name, where, what, c.red.clean(err.Error()))
}

// broken reports whether an error leaves the session unusable: anything
// but a JSON-RPC error answered by a live server.
func broken(err error) bool {
	var we *jsonrpc.Error
	var ue *url.Error
	return !errors.As(err, &we) || errors.As(err, &ue) || we.Code == jsonrpc.CodeInternalError && strings.Contains(we.Message, "transport")
}

// Query calls the server's SQL tool with the statement and returns the
// normalised rows, capped at opts.MaxRows. A timeout stops the session
// (and a server quarry started) so that nothing keeps running.
func (c *Conn) Query(ctx context.Context, sql string, opts connector.QueryOptions) (quarry.Rows, error) {
	s, err := c.session(ctx)
	if err != nil {
		return nil, err
	}
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		callCtx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	defer cancel()
	args := make(map[string]any, len(c.opts.Arguments)+1)
	for k, v := range c.opts.Arguments {
		args[k] = v
	}
	args[s.sqlArg] = sql
	if s.piped != "" {
		return c.queryPiped(ctx, s, args, opts)
	}
	var t *quarry.Table
	if s.binary != "" {
		t, err = c.callBinary(callCtx, s, args, opts)
	} else {
		t, err = c.call(callCtx, s, s.tool, args, opts.Timeout)
	}
	if err != nil {
		return nil, err
	}
	if opts.MaxRows > 0 && int64(len(t.Rows)) > opts.MaxRows {
		t.Rows = t.Rows[:opts.MaxRows]
		t.Truncated = true
	}
	if err := connector.CheckTable(t, opts); err != nil {
		return nil, err
	}
	return quarry.TableRows(t), nil
}

// call calls a tool and reads its answer as a table. A failure that
// leaves the session unusable drops it.
func (c *Conn) call(ctx context.Context, s *session, tool string, args map[string]any, timeout time.Duration) (*quarry.Table, error) {
	res, err := c.callRaw(ctx, s, tool, args, timeout)
	if err != nil {
		return nil, err
	}
	return c.table(res, tool)
}

// callRaw calls a tool and returns its result as the server sent it.
func (c *Conn) callRaw(ctx context.Context, s *session, tool string, args map[string]any, timeout time.Duration) (*mcp.CallToolResult, error) {
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		qerr := c.fail(ctx, s, err, "answering", timeout)
		if broken(err) {
			c.drop(s)
		}
		return nil, qerr
	}
	return res, nil
}

func (c *Conn) httpClient(g *httpGuard) *http.Client {
	base := http.DefaultTransport
	client := &http.Client{}
	if c.opts.HTTPClient != nil {
		cp := *c.opts.HTTPClient
		client = &cp
		if cp.Transport != nil {
			base = cp.Transport
		}
	}
	client.Transport = &guardTransport{base: base, headers: c.opts.Headers, g: g}
	return client
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
