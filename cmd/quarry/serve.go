package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/httpapi"
	"github.com/quarrydata/quarry/internal/httpserve"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	"github.com/quarrydata/quarry/internal/semantic"
)

// shutdownWait bounds how long Ctrl-C waits for in-flight runs.
const shutdownWait = 30 * time.Second

func (a *app) serveCmd() *cobra.Command {
	var addr, connName string
	var open, allowRemote bool
	var maxStreams int
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web chat and the HTTP API on this machine",
		Long: `Serve quarry's web chat and HTTP API (docs/api.md) on the same runtime as
ask and run: the same knowledge folder, read-only guard, limits and state
database. Every answer is a recorded run.

quarry serve binds the loopback address by default, so only this machine
can reach it. It refuses requests whose Host header is not its own address
or localhost, refuses cross-origin requests, and sends a strict
Content-Security-Policy. quarry has no authentication yet: binding another
address prints a warning and needs --allow-remote.

Ctrl-C stops taking requests, lets the runs in progress finish (at most
30 seconds), and exits.`,
		Example: `  quarry serve
  quarry serve --open
  quarry serve --addr 127.0.0.1:9000`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8000", "the address to listen on, host:port")
	cmd.Flags().BoolVar(&open, "open", false, "open the web chat in the system browser")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow a non-loopback --addr (quarry has no authentication yet)")
	cmd.Flags().IntVar(&maxStreams, "max-streams", httpapi.DefaultMaxStreams, "the most runs in progress at once; more get 429")
	cmd.Flags().StringVar(&connName, "connection", "", "the connection to use (default: the project's default)")
	cmd.RunE = a.action(func(ctx context.Context, cmd *cobra.Command, args []string) error {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return quarry.Errorf(quarry.KindUsage, "--addr %q is not host:port (for example 127.0.0.1:8000)", addr)
		}
		if !loopback(host) {
			fmt.Fprintf(a.stderr, "quarry: warning: %s is reachable from other machines and quarry has no authentication yet; anyone who can reach it can ask questions of your database\n", addr)
			if !allowRemote {
				return quarry.Errorf(quarry.KindUsage, "refusing to serve on %s without --allow-remote; use 127.0.0.1 to stay on this machine", addr)
			}
		}
		if maxStreams < 1 {
			return quarry.Errorf(quarry.KindUsage, "--max-streams must be at least 1")
		}
		srvCfg, closeGuard, err := a.serverConfig(ctx, connName)
		if err != nil {
			return err
		}
		defer closeGuard()
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return quarry.Wrap(quarry.KindUsage, err, "cannot listen on %s (%v); choose another --addr", addr, errors.Unwrap(err))
		}
		srvCfg.Addr, srvCfg.MaxStreams = ln.Addr().String(), maxStreams
		srv, err := httpapi.New(srvCfg)
		if err != nil {
			ln.Close()
			return err
		}
		cfg, err := a.config()
		if err != nil {
			ln.Close()
			return err
		}
		hs := httpServer(srv.Handler(), cfg.Server)
		url := "http://" + ln.Addr().String() + "/"
		fmt.Fprintf(a.stderr, "quarry: serving on %s (Ctrl-C to stop)\n", url)
		if open {
			a.openBrowser(url)
		}
		if cfg.Retention.KeepRuns > 0 {
			st, err := a.store(ctx)
			if err != nil {
				ln.Close()
				return err
			}
			go a.retain(ctx, st, cfg.Retention)
		}
		if err := serveUntil(ctx, hs, ln); err != nil {
			return err
		}
		fmt.Fprintln(a.stderr, "quarry: stopping; waiting for the runs in progress")
		wait, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownWait)
		defer cancel()
		err = hs.Shutdown(wait)
		if werr := srv.Wait(wait); err == nil {
			err = werr
		}
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintln(a.stderr, "quarry: some runs were still in progress after 30s; they are recorded as running")
		}
		return nil
	})
	return cmd
}

// httpServer is the http.Server of every server quarry runs (serve, and
// mcp and connector with --http): bounded reads of each request, headers
// and body, an idle timeout and a header size limit, from quarry.yaml's
// server section; responses, which may stream, are not bounded.
func httpServer(h http.Handler, sv config.Server) *http.Server {
	return httpserve.New(h, httpserve.Limits{
		ReadTimeout: sv.ReadTimeout, IdleTimeout: sv.IdleTimeout, MaxHeaderBytes: sv.MaxHeaderBytes,
	})
}

// serveUntil serves hs on ln until it fails, or until ctx ends (Ctrl-C),
// when it returns nil and the caller shuts hs down.
func serveUntil(ctx context.Context, hs *http.Server, ln net.Listener) error {
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return quarry.Wrap(quarry.KindInternal, err, "the server stopped")
	case <-ctx.Done():
		return nil
	}
}

// serverConfig wires the server to the same runtime as ask and run: one
// connection, one guard (safe for concurrent use), one result cache shared
// by every request, the project's limits, and a fresh analyst per run.
// The returned func releases the guard once the server has stopped.
func (a *app) serverConfig(ctx context.Context, connName string) (httpapi.Config, func(), error) {
	cfg, err := a.config()
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	m, err := a.modelFor(cfg, "")
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	if connName == "" && cfg.Connection == "" {
		return a.manualServerConfig(ctx, cfg, m)
	}
	k, err := a.serverKnowledge(cfg)
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	st, err := a.store(ctx)
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	conn, cc, err := a.conn(ctx, connName)
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	g, closeGuard, err := a.connGuard(ctx, conn)
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	cache := resultcache.New(cfg.Limits.CacheTTL, resultCacheCells, a.now)
	limits := analyst.Limits{
		MaxRows:          cfg.Limits.MaxRows,
		StatementTimeout: cfg.Limits.StatementTimeout,
		MaxCost:          cfg.Limits.MaxCost,
		MaxEstimatedRows: cfg.Limits.MaxEstimatedRows,
		MaxValueBytes:    cfg.Limits.MaxValueBytes,
		MaxResultBytes:   cfg.Limits.MaxResultBytes,
	}
	label := connectionLabel(cc.Name, conn)
	privileged := a.privilegedRole(cc.Name) // read once: runs start concurrently
	q, closeConns, err := a.sharedConn(ctx, cfg, cc, conn)
	if err != nil {
		closeGuard()
		return httpapi.Config{}, nil, err
	}
	release := func() { closeConns(); closeGuard() }
	// The fixer of `quarry run`, for POST /api/run; it is shown the SQL and
	// the error only.
	fixer := agentFunc(&agent.Agent{Conn: q, Guard: g, Knowledge: k, Connection: label, Clock: a.now}, a.gateway(m))
	start := func(context.Context) (httpapi.Runner, func(), error) {
		return &analyst.Analyst{
			Conn: q, Guard: g, Results: a.results(st), Limits: limits,
			Connection: label, Clock: a.now, Cache: cache,
			PrivilegedRole: privileged,
		}, func() {}, nil
	}
	ask, err := a.modelAsk(ctx, cfg, m, conn, start)
	if err != nil {
		release()
		return httpapi.Config{}, nil, err
	}
	var idMu sync.Mutex
	return httpapi.Config{
		Agent:        fixer,
		Start:        start,
		Ask:          ask,
		Knowledge:    k,
		KnowledgeDir: cfg.Knowledge,
		Store:        st,
		Clock:        a.now,
		NewID: func(prefix string) string {
			idMu.Lock()
			defer idMu.Unlock()
			return a.newID(prefix)
		},
		Version: version,
		Assets:  httpapi.Assets(),
	}, release, nil
}

// modelAsk returns how a server answers questions with the configured
// language model: the agent as `quarry ask` wires it (newAgent), over a
// fresh analyst from start for each question, so that questions the
// builtin planner maps exactly still get the builtin answer. nil when no
// model is configured.
func (a *app) modelAsk(ctx context.Context, cfg *config.Config, m modelChoice, conn connector.Conn, start httpapi.StartFunc) (httpapi.AskFunc, error) {
	gw := a.gateway(m)
	if gw == nil {
		return nil, nil
	}
	k, verified, err := a.agentKnowledge(cfg)
	if err != nil {
		return nil, err
	}
	tmpl := agent.Agent{
		Knowledge: k, Verified: verified, KnowledgeDir: cfg.Knowledge, Clock: a.now, Gateway: gw,
		Limits: agentLimits(cfg),
	}
	// The live schema, read once before runs share the connection.
	if cat, err := a.catalog(ctx, conn); err == nil {
		tmpl.Catalog = cat
		if tmpl.Withheld, err = a.withheldViews(ctx, conn, cat); err != nil {
			return nil, err
		}
	}
	if err := a.checkModelOnce(ctx, cfg, m, &tmpl); err != nil {
		return nil, err
	}
	return func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
		runner, done, err := start(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		an, ok := runner.(*analyst.Analyst)
		if !ok {
			return runner.Ask(ctx, rec, k, question, asOf)
		}
		ag := tmpl
		ag.Conn, ag.Guard, ag.Results, ag.Connection, ag.Builtin = an.Conn, an.Guard, an.Results, an.Connection, an
		ag.PrivilegedRole = an.PrivilegedRole
		return ag.Ask(ctx, rec, question, asOf, opts)
	}, nil
}

// serverKnowledge loads the knowledge folder for a server. A project that
// has not run quarry learn yet is still served: SQL runs, the schema is
// described, and questions are answered by the model when there is one;
// the builtin planner says what it does not know, and a note on stderr
// says how to teach it.
func (a *app) serverKnowledge(cfg *config.Config) (*analyst.Knowledge, error) {
	if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(a.stderr, "quarry: no knowledge folder at %s; questions get answers only from a language model until you run quarry learn\n", cfg.Knowledge)
		model := &semantic.Model{}
		return &analyst.Knowledge{Model: model, Planner: planner.New(model, nil)}, nil
	}
	return a.knowledge()
}

// agentFunc returns an httpapi.AgentFunc that hands each run its own copy
// of ag, with gw as its model when there is one.
func agentFunc(ag *agent.Agent, gw *llm.Gateway) httpapi.AgentFunc {
	if gw != nil {
		ag.Gateway = gw
	}
	return func(context.Context) (*agent.Agent, func(), error) {
		c := *ag
		return &c, func() {}, nil
	}
}

// manualServerConfig serves a project with no connection: chat questions
// get a proposed query (manual mode, as `quarry ask` without a connection)
// and a later turn with the pasted result continues the run; /api/run has
// nothing to run on.
func (a *app) manualServerConfig(ctx context.Context, cfg *config.Config, m modelChoice) (httpapi.Config, func(), error) {
	k, verified, err := a.agentKnowledge(cfg)
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	st, err := a.store(ctx)
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	g, closeGuard, err := a.newGuard(quarry.DialectGeneric)
	if err != nil {
		return httpapi.Config{}, nil, err
	}
	ag := &agent.Agent{
		Knowledge: k, Verified: verified, KnowledgeDir: cfg.Knowledge, Clock: a.now,
		Guard: g, Results: st, Dialect: quarry.DialectGeneric, Connection: "manual (no connection)",
		Limits: agentLimits(cfg),
	}
	var idMu sync.Mutex
	return httpapi.Config{
		Start: func(context.Context) (httpapi.Runner, func(), error) {
			return nil, nil, quarry.Errorf(quarry.KindConfig, "no connection is configured, so quarry serve runs no SQL; ask a question to get a query to run yourself, or add a connection to quarry.yaml")
		},
		Agent:        agentFunc(ag, a.gateway(m)),
		Knowledge:    k,
		KnowledgeDir: cfg.Knowledge,
		Store:        st,
		Clock:        a.now,
		NewID: func(prefix string) string {
			idMu.Lock()
			defer idMu.Unlock()
			return a.newID(prefix)
		},
		Version: version,
		Assets:  httpapi.Assets(),
	}, closeGuard, nil
}

// sqlitePool is how many connections to a SQLite database the server
// reads through at once.
const sqlitePool = 4

// sharedConn makes conn safe for concurrent runs. PostgreSQL and MySQL
// connections are pools already. A SQLite connection runs one query at a
// time, so the server opens a few more to the same file and shares them;
// any other driver's connection is shared one query at a time.
func (a *app) sharedConn(ctx context.Context, cfg *config.Config, cc *config.Connection, conn connector.Conn) (analyst.Querier, func(), error) {
	switch cc.Driver {
	case config.DriverPostgres, config.DriverMySQL:
		return conn, func() {}, nil
	case config.DriverSQLite:
		qs := []analyst.Querier{conn}
		var extra []connector.Conn
		closeAll := func() {
			for _, c := range extra {
				c.Close()
			}
		}
		for range min(sqlitePool, runtime.NumCPU()) - 1 {
			c, err := a.openSQLite(ctx, cfg, cc)
			if err != nil {
				closeAll()
				return nil, nil, err
			}
			extra = append(extra, c)
			qs = append(qs, c)
		}
		return httpapi.Pool(qs...), closeAll, nil
	}
	return httpapi.Pool(conn), func() {}, nil
}

// loopback reports whether host names this machine only.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// openBrowser opens url in the system browser when one can be found, and
// otherwise says where to go.
func (a *app) openBrowser(url string) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	path, err := exec.LookPath(name)
	if err == nil {
		c := exec.Command(path, url)
		if err = c.Start(); err == nil {
			go c.Wait()
			return
		}
	}
	fmt.Fprintf(a.stdout, "Open %s in your browser.\n", url)
}
