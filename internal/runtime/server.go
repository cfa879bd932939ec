package runtime

import (
	"context"
	"errors"
	"os"
	goruntime "runtime"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	"github.com/quarrydata/quarry/internal/store"
)

// Server is what a server (quarry serve, quarry mcp) shares between the
// requests it answers at once: one connection made safe for concurrent
// runs, one guard, one result cache, the knowledge folder, the store, and
// the model when one is configured. Every request gets a fresh analyst
// (Start) or agent (Agent) over them: the same pipeline as the CLI's.
type Server struct {
	Knowledge    *analyst.Knowledge
	KnowledgeDir string
	Verified     []agent.Verified
	Store        store.State
	// Connection and Dialect name the connection ("" in manual mode);
	// Catalog and Withheld are its schema, read once, and the relations
	// the column policy withholds as a whole (nil when unknown).
	Connection string
	Dialect    quarry.Dialect
	Catalog    *quarry.Catalog
	CatalogErr error // why the schema could not be read
	Withheld   map[string]bool
	// Start returns the analyst of one run; in manual mode (no
	// connection) it refuses.
	Start func(ctx context.Context) (*analyst.Analyst, error)
	// Ask answers a question of a conversation (opts has its session and
	// earlier turns): with the configured model (the builtin planner's
	// answer when it maps the question exactly), with the builtin planner
	// when there is no model, and in manual mode with a proposed query.
	Ask func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error)
	// Agent returns the agent of one run: the fixer of a user's failed
	// statement, or in manual mode the proposer of queries whose results
	// are pasted. nil: neither.
	Agent func() *agent.Agent
	Clock func() time.Time
	NewID func(prefix string) string
}

// sqlitePool is how many connections to a SQLite database a server reads
// through at once.
const sqlitePool = 4

// Server builds what a server shares, over the named connection (""
// for the default; a project with none is served in manual mode). The
// returned func releases it once the server has stopped.
func (r *Runtime) Server(ctx context.Context, connName string) (*Server, func(), error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, nil, err
	}
	m, err := r.ModelFor(cfg, "")
	if err != nil {
		return nil, nil, err
	}
	st, err := r.Store(ctx)
	if err != nil {
		return nil, nil, err
	}
	srv := &Server{KnowledgeDir: cfg.Knowledge, Store: st, Clock: r.o.Now, NewID: r.NewID, Dialect: quarry.DialectGeneric}
	if cfg.Manual(connName) {
		return r.manualServer(cfg, m, srv)
	}
	if srv.Knowledge, err = r.serverKnowledge(cfg); err != nil {
		return nil, nil, err
	}
	if _, srv.Verified, err = r.agentKnowledge(cfg); err != nil {
		return nil, nil, err
	}
	conn, cc, err := r.Conn(ctx, connName)
	if err != nil {
		return nil, nil, err
	}
	srv.Connection, srv.Dialect = cc.Name, conn.Dialect()
	// The live schema, read once before runs share the connection.
	if cat, err := r.Catalog(ctx, conn); err == nil {
		srv.Catalog = cat
		if srv.Withheld, err = r.WithheldViews(ctx, conn, cat); err != nil {
			return nil, nil, err
		}
	} else {
		srv.CatalogErr = err
	}
	g, closeGuard, err := r.ConnGuard(ctx, conn)
	if err != nil {
		return nil, nil, err
	}
	cache := resultcache.New(cfg.Limits.CacheTTL, resultCacheCells, r.o.Now)
	label := ConnectionLabel(cc.Name, conn)
	privileged := r.privilegedRole(cc.Name) // read once: runs start concurrently
	q, closeConns, err := r.sharedConn(ctx, cfg, cc, conn)
	if err != nil {
		closeGuard()
		return nil, nil, err
	}
	release := func() { closeConns(); closeGuard() }
	results := r.Results(st)
	srv.Start = func(context.Context) (*analyst.Analyst, error) {
		return &analyst.Analyst{
			Conn: q, Guard: g, Results: results, Limits: limits(cfg, cfg.Limits.MaxRows),
			Connection: label, Clock: r.o.Now, Cache: cache, PrivilegedRole: privileged,
		}, nil
	}
	gw := r.Gateway(m)
	// The fixer of POST /api/run; it is shown the SQL and the error only.
	fixer := agent.Agent{Conn: q, Guard: g, Knowledge: srv.Knowledge, Connection: label, Clock: r.o.Now}
	if gw != nil {
		fixer.Gateway = gw
	}
	srv.Agent = func() *agent.Agent { c := fixer; return &c }
	// Questions: the model when one is configured, with the builtin
	// planner's answer for those it maps exactly; else the builtin
	// planner, follow-ups made whole.
	tmpl := agent.Agent{Knowledge: srv.Knowledge, Verified: srv.Verified, KnowledgeDir: cfg.Knowledge, Clock: r.o.Now,
		Limits: AgentLimits(cfg), Catalog: srv.Catalog, Withheld: srv.Withheld,
		Schema: &agent.SchemaIndex{}} // the server's questions share one schema index
	if gw != nil {
		k, _, err := r.agentKnowledge(cfg)
		if err != nil {
			release()
			return nil, nil, err
		}
		tmpl.Knowledge, tmpl.Gateway = k, gw
		if err := r.checkModelOnce(ctx, cfg, m, &tmpl); err != nil {
			release()
			return nil, nil, err
		}
	}
	var noKnowledge error
	if gw == nil {
		// Without a model the builtin planner answers, and it needs the
		// knowledge folder: every surface says so as quarry ask does.
		if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
			_, noKnowledge = r.Knowledge()
		}
	}
	srv.Ask = func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
		if noKnowledge != nil {
			return nil, noKnowledge
		}
		an, err := srv.Start(ctx)
		if err != nil {
			return nil, err
		}
		ag := tmpl
		ag.Conn, ag.Guard, ag.Results, ag.Connection, ag.Builtin = an.Conn, an.Guard, an.Results, an.Connection, an
		ag.PrivilegedRole = an.PrivilegedRole
		return ag.Ask(ctx, rec, question, asOf, opts)
	}
	return srv, release, nil
}

// manualServer serves a project with no connection: questions get a
// proposed query (manual mode, as `quarry ask` without a connection) and
// a later turn with the pasted result continues the run; nothing runs SQL.
func (r *Runtime) manualServer(cfg *config.Config, m ModelChoice, srv *Server) (*Server, func(), error) {
	k, verified, err := r.agentKnowledge(cfg)
	if err != nil {
		return nil, nil, err
	}
	g, closeGuard, err := r.NewGuard(quarry.DialectGeneric)
	if err != nil {
		return nil, nil, err
	}
	srv.Knowledge, srv.Verified = k, verified
	ag := agent.Agent{
		Knowledge: k, Verified: verified, KnowledgeDir: cfg.Knowledge, Clock: r.o.Now,
		Guard: g, Results: srv.Store, Dialect: quarry.DialectGeneric, Connection: manualConnection,
		Limits: AgentLimits(cfg),
	}
	if gw := r.Gateway(m); gw != nil {
		ag.Gateway = gw
	}
	srv.Agent = func() *agent.Agent { c := ag; return &c }
	srv.Ask = func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
		c := ag
		return c.Ask(ctx, rec, question, asOf, opts)
	}
	srv.Start = func(context.Context) (*analyst.Analyst, error) {
		return nil, quarry.Errorf(quarry.KindConfig, "no connection is configured, so quarry runs no SQL here; ask a question to get a query to run on your database yourself, or add a connection to quarry.yaml")
	}
	return srv, closeGuard, nil
}

// sharedConn makes conn safe for concurrent runs. PostgreSQL and MySQL
// connections are pools already. A SQLite connection runs one query at a
// time, so the server opens a few more to the same file and shares them;
// any other driver's connection is shared one query at a time.
func (r *Runtime) sharedConn(ctx context.Context, cfg *config.Config, cc *config.Connection, conn connector.Conn) (analyst.Querier, func(), error) {
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
		for range min(sqlitePool, goruntime.NumCPU()) - 1 {
			c, err := r.openSQLite(ctx, cfg, cc)
			if err != nil {
				closeAll()
				return nil, nil, err
			}
			extra = append(extra, c)
			qs = append(qs, c)
		}
		return Pool(qs...), closeAll, nil
	}
	return Pool(conn), func() {}, nil
}
