package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
	"github.com/quarrydata/quarry/internal/store"
	"github.com/quarrydata/quarry/internal/watch"
)

// Server is what a server (quarry serve, quarry mcp) shares between the
// requests it answers at once: one connection made safe for concurrent
// runs, the store, the connection's schema, and the model when one is
// configured. What the knowledge folder decides — the knowledge, its
// verified queries, the column policy and so the guard, the relations it
// withholds and the result cache — is read again whenever the folder's
// files change (Project): every request runs under the policy.yaml of the
// moment it starts, without a restart. Every request gets a fresh analyst
// (Start) or agent (Agent) over them: the same pipeline as the CLI's.
type Server struct {
	KnowledgeDir string
	// Store is the state database; the results it reads back are redacted
	// by the column policy in force at the time of the read, so a result
	// kept before a column was restricted is not shown in clear after.
	Store store.State
	// Connection and Dialect name the connection ("" in manual mode);
	// Catalog is its schema, read once (nil when unknown).
	Connection string
	Dialect    quarry.Dialect
	Catalog    *quarry.Catalog
	CatalogErr error // why the schema could not be read
	// Project returns what the knowledge folder says now.
	Project func(ctx context.Context) (*Project, error)
	// Start returns the analyst of one run and the func that ends it; in
	// manual mode (no connection) it refuses.
	Start func(ctx context.Context) (*analyst.Analyst, func(), error)
	// Ask answers a question of a conversation (opts has its session and
	// earlier turns): with the configured model (the builtin planner's
	// answer when it maps the question exactly), with the builtin planner
	// when there is no model, and in manual mode with a proposed query.
	Ask func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error)
	// Arriving notes a chat stream that waits for its first event, which
	// runs let it have before they start their work (Slots); call the
	// func it returns once that event is sent.
	Arriving func() func()
	// Agent returns the agent of one run and the func that ends it: the
	// fixer of a user's failed statement, or in manual mode the proposer
	// of queries whose results are pasted.
	Agent func(ctx context.Context) (*agent.Agent, func(), error)
	// Approval is approval mode for a statement a model sends as it is
	// (quarry mcp's run_query) on the served connection, for the person
	// ctx acts for: the connection's setting, else the person's; nil when
	// neither requires it (docs/approval.md).
	Approval func(ctx context.Context) (*analyst.Approval, error)
	// Monitors are the project's monitors as they are now, read, run and
	// shown under the generation of each request (ServedMonitors).
	Monitors *ServedMonitors
	// ApprovalWait is the longest a question's run may wait for a
	// person's approval (docs/approval.md): the connection's
	// approval_timeout when it or a person of the state requires
	// approval at start, else 0.
	ApprovalWait time.Duration
	Clock        func() time.Time
	NewID        func(prefix string) string

	gens *generations
}

// Project is what the knowledge folder says at one moment: the knowledge
// and the builtin planner over it, its verified queries, the column
// policy, and the relations of the catalog that policy withholds as a
// whole (views over restricted columns; nil when unknown).
type Project struct {
	Knowledge *analyst.Knowledge
	Verified  []agent.Verified
	Policy    *policy.Policy
	Withheld  map[string]bool
	// Groups are policy.yaml's groups; a request made for a member of
	// one is served under Policy and the group's restricted columns.
	Groups []knowledge.PolicyGroup
	// Monitors are the folder's monitors; MonitorsErr says why they
	// cannot be read (a notify: naming no channel, a broken file).
	Monitors    []watch.Monitor
	MonitorsErr error
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
	srv := &Server{KnowledgeDir: cfg.Knowledge, Clock: r.o.Now, NewID: r.NewID, Dialect: quarry.DialectGeneric}
	b := &builder{r: r, cfg: cfg, st: st, gw: r.Gateway(m), admit: NewSlots(0)}
	srv.Arriving = b.admit.Arriving
	if !cfg.Manual(connName) {
		conn, cc, err := r.Conn(ctx, connName)
		if err != nil {
			return nil, nil, err
		}
		b.conn, b.cc = conn, cc
		srv.Connection, srv.Dialect = cc.Name, conn.Dialect()
		if srv.ApprovalWait, err = approvalWait(ctx, st, cc); err != nil {
			return nil, nil, err
		}
		// The live schema, read once before runs share the connection.
		if b.cat, err = r.Catalog(ctx, conn); err != nil {
			srv.CatalogErr, b.cat = err, nil
		}
		srv.Catalog = b.cat
		b.privileged = r.privilegedRole(cc.Name) // read once: runs start concurrently
	}
	gens := &generations{dir: cfg.Knowledge, build: b.build, variant: b.variant, member: r.o.Groups,
		files: []string{cfg.Path, filepath.Join(cfg.Dir, config.DotEnvName)}}
	first, err := gens.current(ctx)
	if err != nil {
		return nil, nil, err
	}
	if b.gw != nil && b.conn != nil {
		tmpl := first.tmpl
		if err := r.checkModelOnce(ctx, cfg, m, &tmpl); err != nil {
			gens.close()
			return nil, nil, err
		}
	}
	// Stored results are read back under the policy of the moment, by
	// lineage: a run on the served connection (by name) is checked by the
	// generation's guard; a run on another through the policy's own
	// check of its dialect without a catalog.
	srv.Store = readRedacted{State: st, policy: func(ctx context.Context) (*policy.Policy, lineage, func(), error) {
		g, done, err := gens.acquire(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		return g.proj.Policy, runLineage(g.proj.Policy, func(_ context.Context, connection string) analyst.Guard {
			if name, _, _ := strings.Cut(connection, " ("); g.guard != nil && name == g.conn {
				return g.guard
			}
			return nil
		}), done, nil
	}}
	srv.Project = func(ctx context.Context) (*Project, error) {
		g, done, err := gens.acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		return g.proj, nil
	}
	srv.Start = func(ctx context.Context) (*analyst.Analyst, func(), error) {
		g, done, err := gens.acquire(ctx)
		if err != nil {
			return nil, nil, err
		}
		an, err := g.start()
		if err != nil {
			done()
			return nil, nil, err
		}
		return an, done, nil
	}
	srv.Approval = func(ctx context.Context) (*analyst.Approval, error) {
		g, done, err := gens.acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		return g.approval(ctx)
	}
	srv.Agent = func(ctx context.Context) (*agent.Agent, func(), error) {
		g, done, err := gens.acquire(ctx)
		if err != nil {
			return nil, nil, err
		}
		if g.refused != nil {
			done()
			return nil, nil, g.refused
		}
		c := g.fixer
		return &c, done, nil
	}
	srv.Ask = func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
		g, done, err := gens.acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer done()
		return g.ask(ctx, rec, question, asOf, opts)
	}
	srv.Monitors = &ServedMonitors{r: r, cfg: cfg, gens: gens, st: st}
	srv.gens = gens
	return srv, gens.close, nil
}

// builder builds a server's generations: what the knowledge folder
// decides, over what the server keeps for its life.
type builder struct {
	r          *Runtime
	cfg        *config.Config
	st         store.State
	gw         *llm.Gateway
	conn       connector.Conn // nil in manual mode
	cc         *config.Connection
	cat        *quarry.Catalog
	privileged string
	built      int
	admit      *Slots // the server's run slots
}

// Slots are a server's run slots: Admit (an analyst.Admit) lets n runs
// work at once; n ≤ 0 means the server's default, twice the processors. A
// run's work is planning, checking and writing the answer on the
// processor, and the query on a database that serves a few at a time; more
// at once only makes each slower, and starves the requests that start new
// runs of the processor they need to record them (the first event of a
// chat). So a run also waits, before it takes a slot, for the chat streams
// that wait for their first event (Arriving) to have it, for at most
// firstEventGrace: a burst of questions gets every first event out before
// the answers, and under steady load a run starts at most that much later.
type Slots struct {
	slots chan struct{}
	grace time.Duration

	mu      sync.Mutex
	waiting int           // streams whose first event is not sent yet
	quiet   chan struct{} // closed while waiting is 0
}

// firstEventGrace is the longest a run waits for other streams' first
// events before it starts its work.
const firstEventGrace = 50 * time.Millisecond

// NewSlots returns the run slots of a server that lets n runs work at once.
func NewSlots(n int) *Slots {
	if n <= 0 {
		n = max(2, 2*goruntime.GOMAXPROCS(0))
	}
	quiet := make(chan struct{})
	close(quiet)
	return &Slots{slots: make(chan struct{}, n), grace: firstEventGrace, quiet: quiet}
}

// Admit waits for the streams arriving now to have their first event (at
// most the grace) and then for a slot, and returns the func that frees it.
func (s *Slots) Admit(ctx context.Context) (func(), error) {
	s.mu.Lock()
	quiet := s.quiet
	s.mu.Unlock()
	stopped := func(err error) error {
		return quarry.Wrap(quarry.KindCanceled, err, "the run was stopped while it waited for the server")
	}
	t := time.NewTimer(s.grace)
	select {
	case <-quiet:
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
		return nil, stopped(ctx.Err())
	}
	t.Stop()
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, stopped(ctx.Err())
	}
}

// Arriving notes a stream that waits for its first event; the returned
// func says it was sent (or the stream ended), and only its first call
// counts.
func (s *Slots) Arriving() func() {
	s.mu.Lock()
	if s.waiting == 0 {
		s.quiet = make(chan struct{})
	}
	s.waiting++
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.waiting--; s.waiting == 0 {
				close(s.quiet)
			}
		})
	}
}

// build reads the knowledge folder and builds what depends on it. The
// first generation shares the connection the runtime opened; later ones
// read the folder again (Reload) and, on SQLite, open connections of
// their own, whose authorizer holds the new policy.
func (b *builder) build(ctx context.Context) (*generation, error) {
	r, cfg := b.r, b.cfg
	fresh := b.built > 0
	if fresh {
		r.Reload()
	}
	b.built++
	if b.conn == nil {
		return b.manual()
	}
	if fresh {
		if err := b.reloadTier(); err != nil {
			return nil, err
		}
	}
	// The generation keeps the connection's settings as they are now:
	// its closures run while a later generation may be reading them
	// again.
	g := &generation{proj: &Project{}, cc: b.cc}
	var err error
	if g.proj.Knowledge, err = r.serverKnowledge(cfg); err != nil {
		return nil, err
	}
	if _, g.proj.Verified, err = r.agentKnowledge(cfg); err != nil {
		return nil, err
	}
	if g.proj.Policy, err = r.Policy(); err != nil {
		return nil, err
	}
	g.proj.Groups = r.pol.groups
	g.proj.Monitors, g.proj.MonitorsErr = r.Monitors()
	if r.kf != nil {
		g.values = r.kf.values
	}
	agentK := g.proj.Knowledge
	if b.gw != nil {
		if agentK, _, err = r.agentKnowledge(cfg); err != nil {
			return nil, err
		}
	}
	var noKnowledge error
	if b.gw == nil {
		// Without a model the builtin planner answers, and it needs the
		// knowledge folder: every surface says so as quarry ask does.
		if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
			_, noKnowledge = r.Knowledge()
		}
	}
	g.noKnowledge = noKnowledge
	if err := b.assemble(ctx, g, agentK, fresh); err != nil {
		return nil, err
	}
	return g, nil
}

// assemble builds what runs under g's column policy: the guard, the
// connections (on SQLite, ones whose authorizer holds the policy; fresh:
// only new ones), the views the policy withholds, and the analyst and
// agents of its requests. agentK is the knowledge a model is shown.
func (b *builder) assemble(ctx context.Context, g *generation, agentK *analyst.Knowledge, fresh bool) error {
	r, cfg, cc, p := b.r, b.cfg, g.cc, g.proj.Policy
	var err error
	gd, closeGuard, err := r.connGuardWith(ctx, b.conn, false, p)
	if err != nil {
		return err
	}
	if b.cat != nil && !p.Empty() {
		g.proj.Withheld = withheldBy(ctx, gd, b.conn.Dialect(), b.cat)
		// What the knowledge recorded of views over restricted columns
		// is restricted too (viewpolicy.go).
		extra := refusedViewColumns(ctx, gd, b.conn.Dialect(), b.cat)
		if g.proj.Knowledge, _, err = r.restricting(g.proj.Knowledge, extra); err != nil {
			closeGuard()
			return err
		}
		if agentK, _, err = r.restricting(agentK, extra); err != nil {
			closeGuard()
			return err
		}
	}
	q, closeConns, err := r.sharedConn(ctx, cfg, cc, b.conn, fresh, p)
	if err != nil {
		closeGuard()
		return err
	}
	if g.role != "" {
		q = asRole{Querier: q, role: g.role}
	}
	g.release = func() { closeConns(); closeGuard() }
	cache := resultcache.New(cfg.Limits.CacheTTL, resultCacheCells, r.o.Now)
	label := ConnectionLabel(cc.Name, b.conn)
	g.guard, g.conn = gd, cc.Name
	results := resultsWith(b.st, p)
	g.start = func() (*analyst.Analyst, error) {
		if g.refused != nil {
			return nil, g.refused
		}
		return &analyst.Analyst{
			Conn: q, Guard: gd, Results: results, Limits: limits(cfg, cfg.Limits.MaxRows),
			Connection: label, Clock: r.o.Now, Cache: cache, PrivilegedRole: b.privileged,
			Privacy: cc.Privacy.Or(), MinGroupSize: cc.MinGroupSize, Admit: b.admit.Admit,
		}, nil
	}
	// The fixer of POST /api/run; it is shown the SQL and the error only.
	g.fixer = agent.Agent{Conn: q, Guard: gd, Knowledge: g.proj.Knowledge, Connection: label, Clock: r.o.Now,
		Privacy: cc.Privacy.Or(), MinGroupSize: cc.MinGroupSize}
	if b.gw != nil {
		g.fixer.Gateway = b.gw
	}
	// Questions: the model when one is configured, with the builtin
	// planner's answer for those it maps exactly; else the builtin
	// planner, follow-ups made whole.
	g.tmpl = agent.Agent{Knowledge: g.proj.Knowledge, Verified: g.proj.Verified, KnowledgeDir: cfg.Knowledge, Clock: r.o.Now,
		Limits: AgentLimits(cfg), Catalog: b.cat, Withheld: g.proj.Withheld,
		Schema: &agent.SchemaIndex{}} // the generation's questions share one schema index
	if b.gw != nil {
		g.tmpl.Knowledge, g.tmpl.Gateway = agentK, b.gw
	}
	g.approval = func(ctx context.Context) (*analyst.Approval, error) { return approvalFor(ctx, b.st, cc) }
	g.ask = func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
		if g.noKnowledge != nil {
			return nil, g.noKnowledge
		}
		an, err := g.start()
		if err != nil {
			return nil, err
		}
		ag := g.tmpl
		ag.Conn, ag.Guard, ag.Results, ag.Connection, ag.Builtin = an.Conn, an.Guard, an.Results, an.Connection, an
		ag.PrivilegedRole, ag.Privacy, ag.MinGroupSize = an.PrivilegedRole, an.Privacy, an.MinGroupSize
		if ag.Approval, err = g.approval(ctx); err != nil {
			return nil, err
		}
		return ag.Ask(ctx, rec, question, asOf, opts)
	}
	return nil
}

// reloadTier reads quarry.yaml again for the served connection's privacy
// tier and minimum group size, which a server applies from its next
// request on (the rest of the connection is read once, at start). A
// quarry.yaml that no longer loads fails every request, as a knowledge
// folder that no longer loads does: quarry cannot tell what to withhold.
func (b *builder) reloadTier() error {
	if b.r.o.Load == nil {
		return nil
	}
	cfg, err := b.r.o.Load()
	if err != nil {
		return err
	}
	cc, err := cfg.Conn(b.cc.Name)
	if err != nil {
		return err
	}
	c := *b.cc
	c.Privacy, c.MinGroupSize = cc.Privacy, cc.MinGroupSize
	c.Approval, c.ApprovalTimeout = cc.Approval, cc.ApprovalTimeout
	b.cc = &c
	return nil
}

// manual builds a generation of a project with no connection: questions
// get a proposed query (manual mode, as `quarry ask` without a
// connection) and a later turn with the pasted result continues the run;
// nothing runs SQL.
func (b *builder) manual() (*generation, error) {
	r, cfg := b.r, b.cfg
	k, verified, err := r.agentKnowledge(cfg)
	if err != nil {
		return nil, err
	}
	p, err := r.Policy()
	if err != nil {
		return nil, err
	}
	gd, closeGuard, err := r.NewGuard(quarry.DialectGeneric)
	if err != nil {
		return nil, err
	}
	g := &generation{proj: &Project{Knowledge: k, Verified: verified, Policy: p}, release: closeGuard}
	g.proj.Monitors, g.proj.MonitorsErr = r.Monitors()
	if r.kf != nil {
		g.values = r.kf.values
	}
	g.fixer = agent.Agent{
		Knowledge: k, Verified: verified, KnowledgeDir: cfg.Knowledge, Clock: r.o.Now,
		Guard: gd, Results: b.st, Dialect: quarry.DialectGeneric, Connection: manualConnection,
		Limits: AgentLimits(cfg),
	}
	if b.gw != nil {
		g.fixer.Gateway = b.gw
	}
	g.tmpl = g.fixer
	g.ask = func(ctx context.Context, rec *event.Recorder, question string, asOf time.Time, opts agent.AskOptions) (*analyst.AskOutcome, error) {
		c := g.fixer
		return c.Ask(ctx, rec, question, asOf, opts)
	}
	g.approval = func(context.Context) (*analyst.Approval, error) { return nil, nil } // nothing runs
	g.start = func() (*analyst.Analyst, error) {
		return nil, quarry.Errorf(quarry.KindConfig, "no connection is configured, so quarry runs no SQL here; ask a question to get a query to run on your database yourself, or add a connection to quarry.yaml")
	}
	return g, nil
}

// sharedConn makes conn safe for concurrent runs. PostgreSQL and MySQL
// connections are pools already. A SQLite connection runs one query at a
// time, so the server opens a few more to the same file and shares them
// (fresh: only new ones, under the policy p, leaving conn out); any
// other driver's connection is shared one query at a time.
func (r *Runtime) sharedConn(ctx context.Context, cfg *config.Config, cc *config.Connection, conn connector.Conn, fresh bool, p *policy.Policy) (analyst.Querier, func(), error) {
	switch cc.Driver {
	case config.DriverPostgres, config.DriverMySQL:
		return conn, func() {}, nil
	case config.DriverSQLite:
		var qs []analyst.Querier
		if !fresh {
			qs = append(qs, conn)
		}
		var extra []connector.Conn
		closeAll := func() {
			for _, c := range extra {
				c.Close()
			}
		}
		for len(qs) < min(sqlitePool, goruntime.NumCPU()) || len(qs) == 0 {
			c, err := openSQLiteWith(ctx, cfg, cc, p)
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
