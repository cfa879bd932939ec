package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/auth"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/mcpserver"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/runtime"
)

func (a *app) mcpCmd() *cobra.Command {
	var connName string
	var hf mcpHTTPFlags
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve this project to MCP clients (Claude, Cursor, …): ask, run_query, describe, get_result",
		Long: `Serve the project as a Model Context Protocol server, on standard input and
output (the default, for clients that start quarry themselves) or on
streamable HTTP with --http. It is the runtime of ask, run and serve: the
same quarry.yaml, knowledge folder, read-only guard, limits and state
database, and every ask and run_query is a recorded run (quarry runs list).

Tools: ask (a question in plain language: the answer, the SQL, the checks
and the first rows), run_query (your own SELECT, guarded), describe (the
tables, metrics, dimensions and verified questions) and get_result (the
rows of an earlier result, a page at a time). Restricted columns are never
shown to the client. See docs/mcp.md for client configuration.

With --http, quarry binds the loopback address unless --allow-remote is
given, refuses requests whose Host header is not its own address or
localhost, and refuses cross-origin requests. Once the state has people
(quarry users add), and always with --allow-remote, every request needs an
API token of an admin or an analyst who may use the connection
(Authorization: Bearer qry_…, docs/auth.md); --no-auth turns that off
(dangerous).
Nothing but MCP is written to standard output; messages go to standard
error.`,
		Example: `  quarry mcp
  quarry -C ~/projects/shop mcp
  quarry mcp --http 127.0.0.1:8765`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to use (default: the project's default)")
	hf.add(cmd, "quarry mcp")
	hf.addAuth(cmd)
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		if err := hf.check(a); err != nil {
			return err
		}
		rs, release, err := a.rt.Server(ctx, connName)
		if err != nil {
			return err
		}
		defer release()
		mcfg := a.mcpConfig(rs)
		if hf.addr != "" {
			host, _, _ := net.SplitHostPort(hf.addr)
			if hf.gate, err = a.gate(ctx, rs, hf.addr, !loopback(host), hf.allowRemote, hf.noAuth); err != nil {
				return err
			}
			if hf.gate != nil {
				mcfg.Store = auth.Scope(rs.Store)
			}
		}
		srv, err := mcpserver.New(mcfg)
		if err != nil {
			return err
		}
		what := "this project"
		if mcfg.Connection != "" {
			what = "connection " + mcfg.Connection
		}
		cfg, err := a.config()
		if err != nil {
			return err
		}
		return a.serveMCP(ctx, srv, hf, what, cfg.Server, "server.max_sessions in quarry.yaml (or --max-sessions)")
	})
	return cmd
}

// mcpConfig maps what the runtime shares between a server's requests
// onto the project server's config: questions go to the runtime's
// planner, as `quarry ask` and `quarry serve` send them.
func (a *app) mcpConfig(srv *runtime.Server) mcpserver.Config {
	mc := mcpserver.Config{
		Store:      srv.Store,
		Clock:      srv.Clock,
		NewID:      srv.NewID,
		Version:    a.version.Version,
		Dialect:    srv.Dialect,
		Connection: srv.Connection,
		Catalog:    srv.Catalog,
	}
	if srv.CatalogErr != nil {
		fmt.Fprintf(a.stderr, "quarry: describe lists the knowledge folder's tables: the schema could not be read (%s)\n", oneLine(quarry.Message(srv.CatalogErr)))
	}
	mc.Project = func(ctx context.Context) (*mcpserver.Project, error) {
		p, err := srv.Project(ctx)
		if err != nil {
			return nil, err
		}
		mp := &mcpserver.Project{Knowledge: p.Knowledge, Policy: p.Policy, Withheld: p.Withheld}
		for _, v := range p.Verified {
			mp.Verified = append(mp.Verified, mcpserver.Verified{Question: v.Question, SQL: v.SQL})
		}
		return mp, nil
	}
	mc.Run = func(ctx context.Context, rec *event.Recorder, sql string, sink analyst.RowSink) (*analyst.RunOutcome, error) {
		an, done, err := srv.Start(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		// An MCP client's statement is a model's, as it wrote it: in
		// approval mode it waits for a person (docs/approval.md).
		if an.Approval, err = srv.Approval(ctx); err != nil {
			return nil, err
		}
		return an.Run(ctx, rec, sql, sink)
	}
	mc.Ask = func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time) (*analyst.AskOutcome, error) {
		return srv.Ask(ctx, rec, question, asOf, agent.AskOptions{})
	}
	return mc
}

// mcpHTTPFlags are the flags of the commands that can serve MCP over
// streamable HTTP.
type mcpHTTPFlags struct {
	addr        string
	allowRemote bool
	maxSessions int // 0: server.max_sessions or its default
	// signIn: the command checks who is asking (quarry mcp), with
	// --no-auth to turn it off; gate is what checks, once built.
	signIn bool
	noAuth bool
	gate   *auth.Gate
}

func (f *mcpHTTPFlags) add(cmd *cobra.Command, name string) {
	cmd.Flags().StringVar(&f.addr, "http", "", "serve streamable HTTP on ADDR (host:port, e.g. 127.0.0.1:8765) at "+mcpserver.HTTPPath+" instead of standard input and output")
	cmd.Flags().BoolVar(&f.allowRemote, "allow-remote", false, "allow a non-loopback --http address ("+name+" has no authentication yet)")
	cmd.Flags().IntVar(&f.maxSessions, "max-sessions", 0, fmt.Sprintf("with --http: the most MCP sessions open at once (default %d, or server.max_sessions in quarry.yaml)", config.DefaultMaxSessions))
}

// addAuth adds --no-auth to a command that checks who is asking.
func (f *mcpHTTPFlags) addAuth(cmd *cobra.Command) {
	f.signIn = true
	cmd.Flags().BoolVar(&f.noAuth, "no-auth", false, "with --http, DANGEROUS: ask nobody who they are, even with --allow-remote or with people in the state")
}

// check applies quarry serve's policy to --http: loopback only, unless
// --allow-remote.
func (f *mcpHTTPFlags) check(a *app) error {
	if f.maxSessions < 0 {
		return quarry.Errorf(quarry.KindUsage, "--max-sessions must be at least 1")
	}
	if f.addr == "" {
		if f.allowRemote || f.noAuth {
			return quarry.Errorf(quarry.KindUsage, "--allow-remote and --no-auth go with --http; standard input and output are local already")
		}
		return nil
	}
	host, _, err := net.SplitHostPort(f.addr)
	if err != nil {
		return quarry.Errorf(quarry.KindUsage, "--http %q is not host:port (for example 127.0.0.1:8765)", f.addr)
	}
	if !loopback(host) {
		if !f.signIn {
			fmt.Fprintf(a.stderr, "quarry: warning: %s is reachable from other machines and this server has no authentication; anyone who can reach it can query your database\n", f.addr)
		}
		if !f.allowRemote {
			return quarry.Errorf(quarry.KindUsage, "refusing to serve on %s without --allow-remote; use 127.0.0.1 to stay on this machine", f.addr)
		}
	}
	return nil
}

// mcpStopWait bounds how long Ctrl-C waits for the tool calls in progress.
const mcpStopWait = 10 * time.Second

// serveMCP serves srv until the client goes away or ctx ends: on the
// command's standard input and output, or on streamable HTTP at f.addr
// within the bounds sv (--max-sessions over sv.MaxSessions); raise says
// how a user raises the session cap.
func (a *app) serveMCP(ctx context.Context, srv *mcp.Server, f mcpHTTPFlags, what string, sv config.Server, raise string) error {
	addr := f.addr
	if addr == "" {
		return a.serveMCPStdio(ctx, srv, what)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return quarry.Wrap(quarry.KindUsage, err, "cannot listen on %s (%v); choose another --http address", addr, errors.Unwrap(err))
	}
	if f.maxSessions > 0 {
		sv.MaxSessions = f.maxSessions
	}
	h, err := mcpserver.HTTPHandler(srv, ln.Addr().String(), mcpserver.HTTPOptions{
		MaxSessions: sv.MaxSessions, SessionIdleTimeout: sv.SessionIdleTimeout, Raise: raise,
	})
	if err != nil {
		ln.Close()
		return err
	}
	if f.gate != nil {
		h = f.gate.WrapMCP(bindMCPSessions(h))
	}
	hs := httpServer(h, sv)
	fmt.Fprintf(a.stderr, "quarry: serving MCP on http://%s%s for %s (Ctrl-C to stop)\n", ln.Addr(), mcpserver.HTTPPath, what)
	if err := serveUntil(ctx, hs, ln); err != nil {
		return err
	}
	fmt.Fprintln(a.stderr, "quarry: stopping")
	wait, cancel := context.WithTimeout(context.WithoutCancel(ctx), mcpStopWait)
	defer cancel()
	if err := hs.Shutdown(wait); err != nil {
		// Open event streams never go idle; close them.
		hs.Close()
	}
	return nil
}

// serveMCPStdio serves srv on the command's stdin and stdout until the
// client closes stdin or ctx ends.
func (a *app) serveMCPStdio(ctx context.Context, srv *mcp.Server, what string) error {
	in, ok := a.stdin.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(a.stdin)
	}
	fmt.Fprintf(a.stderr, "quarry: serving MCP on standard input and output for %s\n", what)
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcp.IOTransport{Reader: in, Writer: &stdoutCloser{w: a.stdout}}) }()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || ctx.Err() != nil {
			return nil
		}
		return quarry.Wrap(quarry.KindInput, err, "the MCP session ended: %s", oneLine(err.Error()))
	case <-ctx.Done():
		// A read of a terminal or pipe may not end when the session
		// closes; do not wait for it forever.
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
		return nil
	}
}

// stdoutCloser lets the transport close its writer without closing the
// process's standard output, and serialises writes.
type stdoutCloser struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *stdoutCloser) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *stdoutCloser) Close() error { return nil }
