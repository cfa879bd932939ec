package runtime

import (
	"context"
	"math"
	"path/filepath"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/llm"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/resultcache"
)

// resultCacheCells bounds the result cache: about a million cells.
const resultCacheCells = 1 << 20

// manualConnection is how runs without a connection name theirs.
const manualConnection = "manual (no connection)"

// limits are the analyst's limits from quarry.yaml, with maxRows read.
func limits(cfg *config.Config, maxRows int64) analyst.Limits {
	return analyst.Limits{
		MaxRows:          maxRows,
		StatementTimeout: cfg.Limits.StatementTimeout,
		MaxCost:          cfg.Limits.MaxCost,
		MaxEstimatedRows: cfg.Limits.MaxEstimatedRows,
		MaxValueBytes:    cfg.Limits.MaxValueBytes,
		MaxResultBytes:   cfg.Limits.MaxResultBytes,
	}
}

// Recorder returns a recorder for a new run into the state store, holding
// its events for a few durable writes per run rather than one per event;
// a statement that waits for approval is told of on the notes too.
func (r *Runtime) Recorder(ctx context.Context) (*event.Recorder, error) {
	st, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	var sink event.Sink = st
	if id := r.replica; id != "" {
		sink = event.SinkFunc(func(ctx context.Context, events ...event.Event) error {
			return st.Append(ctx, event.StampReplica(id, events)...)
		})
	}
	rec := event.NewRecorder(r.NewID("r"), r.o.Now, event.MultiSink(sink, r.approvalNotes()))
	rec.Hold()
	return rec, nil
}

// RecordAs names replica id in every run Recorder records from now on, as
// a server's requests name theirs: the runs a serve process starts on its
// own (a monitor's check, a workflow's steps) are then finished as failed
// by the replicas' sweep if the process dies, not left running. A
// workflow's own run, which may wait with no process holding it, is not
// recorded through Recorder. Call it once, before runs start.
func (r *Runtime) RecordAs(id string) { r.replica = id }

// Analyst opens what runs need on the named connection: the store, the
// connection and its guard, the result cache. maxRows caps the rows a
// statement reads (0: no cap). The returned func releases the guard.
func (r *Runtime) Analyst(ctx context.Context, connName string, maxRows int64) (*analyst.Analyst, func(), error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, nil, err
	}
	st, err := r.Store(ctx)
	if err != nil {
		return nil, nil, err
	}
	if cc, err := cfg.Conn(connName); err == nil && cc.Driver == config.DriverPostgres && len(r.cats) == 0 && cfg.Knowledge != "" {
		// The cached catalog is decoded while the connection opens and
		// says its version (knowledge.CatalogAhead).
		r.catAhead = knowledge.CatalogAhead(cfg.Knowledge)
	}
	conn, cc, err := r.Conn(ctx, connName)
	if err != nil {
		return nil, nil, err
	}
	if err := r.tierUnchanged(cc); err != nil {
		return nil, nil, err
	}
	g, closeGuard, err := r.connGuard(ctx, conn, true)
	if err != nil {
		return nil, nil, err
	}
	an := &analyst.Analyst{
		Conn:       conn,
		Guard:      g,
		Results:    r.Results(st),
		Limits:     limits(cfg, maxRows),
		Connection: ConnectionLabel(cc.Name, conn),
		PolicyOff:  r.pol.off,
		Clock:      r.o.Now,
		Cache:      resultcache.New(cfg.Limits.CacheTTL, resultCacheCells, r.o.Now),
		// Set only when allow_privileged_role let a privileged role run.
		PrivilegedRole: r.privilegedRole(cc.Name),
		Privacy:        cc.Privacy.Or(), MinGroupSize: cc.MinGroupSize,
	}
	return an, closeGuard, nil
}

// tierUnchanged reads quarry.yaml again and refuses to go on when it now
// gives the connection another privacy tier or group size than this
// process read at its start. A long-running process (quarry serve: its
// workflows and monitors run through Analyst, outside the server's
// generations, which re-read the tier themselves) would otherwise apply a
// tier the file no longer says; a quarry.yaml that no longer loads is
// refused for the same reason.
func (r *Runtime) tierUnchanged(cc *config.Connection) error {
	if r.o.Load == nil {
		return nil
	}
	cfg, err := r.o.Load()
	if err != nil {
		return err
	}
	now, err := cfg.Conn(cc.Name)
	if err != nil {
		return err
	}
	if now.Privacy.Or() != cc.Privacy.Or() || now.MinGroupSize != cc.MinGroupSize {
		return quarry.Errorf(quarry.KindConfig, "the privacy of connection %s changed in %s (now %s) since this process read it (%s); restart quarry serve to apply it",
			cc.Name, filepath.Base(cfg.Path), now.Privacy.Or(), cc.Privacy.Or())
	}
	return nil
}

// AgentLimits are the agent's bounds from quarry.yaml: its steps and
// budget, preview rows and repairs, and the limits its queries run under.
func AgentLimits(cfg *config.Config) agent.Limits {
	l := agent.Limits{
		MaxSteps: cfg.Model.MaxSteps, SchemaBudget: cfg.Model.SchemaBudget,
		Budget:      llm.Budget{MaxMicroUSD: int64(math.Round(cfg.Model.BudgetUSD * 1e6))},
		PreviewRows: cfg.Limits.PreviewRows, RepairAttempts: cfg.Limits.RepairAttempts,
		StatementTimeout: cfg.Limits.StatementTimeout, MaxCost: cfg.Limits.MaxCost, MaxEstimatedRows: cfg.Limits.MaxEstimatedRows,
		MaxValueBytes: cfg.Limits.MaxValueBytes, MaxResultBytes: cfg.Limits.MaxResultBytes,
	}
	if cfg.Limits.MaxRows > 0 {
		l.MaxRows = min(cfg.Limits.MaxRows, agent.DefaultMaxRows)
	}
	return l
}

// Agent wires the planner of one question: a language model (m), the
// builtin planner behind it for questions it maps exactly, or in manual
// mode (no connection) the proposer of a query for a person to run. It
// returns a recorder for a new run and a func that releases what it
// opened.
func (r *Runtime) Agent(ctx context.Context, m ModelChoice, connName string, preferModel bool) (*agent.Agent, *event.Recorder, func(), error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, nil, nil, err
	}
	k, verified, err := r.agentKnowledge(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	ag := &agent.Agent{
		Knowledge: k, Verified: verified, KnowledgeDir: cfg.Knowledge, PreferModel: preferModel, Clock: r.o.Now,
		Limits: AgentLimits(cfg),
	}
	if gw := r.Gateway(m); gw != nil {
		ag.Gateway = gw
	}
	if cfg.Manual(connName) {
		st, err := r.Store(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		g, closeGuard, err := r.NewGuard(quarry.DialectGeneric)
		if err != nil {
			return nil, nil, nil, err
		}
		ag.Guard, ag.Results, ag.Dialect, ag.Connection = g, st, quarry.DialectGeneric, manualConnection
		if err := r.checkModelOnce(ctx, cfg, m, ag); err != nil {
			closeGuard()
			return nil, nil, nil, err
		}
		rec, err := r.Recorder(ctx)
		if err != nil {
			closeGuard()
			return nil, nil, nil, err
		}
		return ag, rec, closeGuard, nil
	}
	an, closeRun, err := r.Analyst(ctx, connName, cfg.Limits.MaxRows)
	if err != nil {
		return nil, nil, nil, err
	}
	rec, err := r.Recorder(ctx)
	if err != nil {
		closeRun()
		return nil, nil, nil, err
	}
	ag.Conn, ag.Guard, ag.Results, ag.Connection, ag.Builtin = an.Conn, an.Guard, an.Results, an.Connection, an
	ag.PrivilegedRole, ag.Privacy, ag.MinGroupSize = an.PrivilegedRole, an.Privacy, an.MinGroupSize
	c, cc, err := r.Conn(ctx, connName)
	if err == nil {
		st, err := r.Store(ctx)
		if err == nil {
			ag.Approval, err = approvalFor(ctx, st, cc)
		}
		if err != nil {
			closeRun()
			return nil, nil, nil, err
		}
		if cat, err := r.Catalog(ctx, c); err == nil {
			ag.Catalog = cat
			if ag.Withheld, err = r.WithheldViews(ctx, c, cat); err != nil {
				closeRun()
				return nil, nil, nil, err
			}
		}
	}
	if err := r.checkModelOnce(ctx, cfg, m, ag); err != nil {
		closeRun()
		return nil, nil, nil, err
	}
	return ag, rec, closeRun, nil
}

// Fixer is the model that proposes a fix of the user's failed statement
// on an's connection and guard; it is shown the SQL and the error only.
// nil when m is the builtin planner.
func (r *Runtime) Fixer(m ModelChoice, an *analyst.Analyst) *agent.Agent {
	gw := r.Gateway(m)
	if gw == nil {
		return nil
	}
	k := &analyst.Knowledge{}
	if cfg, err := r.Config(); err == nil {
		if kk, _, err := r.agentKnowledge(cfg); err == nil {
			k = kk
		}
	}
	return &agent.Agent{Gateway: gw, Conn: an.Conn, Guard: an.Guard, Knowledge: k, Clock: r.o.Now, Privacy: an.Privacy, MinGroupSize: an.MinGroupSize}
}
