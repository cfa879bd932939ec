package runtime

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// policyState is the project's column policy, loaded once per command.
type policyState struct {
	loaded bool
	p      *policy.Policy
	groups []knowledge.PolicyGroup // policy.yaml's groups
	err    error
	off    bool // quarry run --no-policy: the user's own terminal, on request
}

// Policy returns the project's column policy: the restricted columns of
// its knowledge folder (none when there is no folder yet). A folder that
// cannot be loaded is an error: quarry cannot tell what to withhold, so it
// runs nothing.
func (r *Runtime) Policy() (*policy.Policy, error) {
	if r.pol.off {
		return policy.New(nil), nil
	}
	if r.pol.loaded {
		return r.pol.p, r.pol.err
	}
	r.pol.loaded = true
	cfg, err := r.Config()
	if err != nil {
		r.pol.err = err
		return nil, err
	}
	if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
		r.pol.p = policy.New(nil)
		return r.pol.p, nil
	}
	if !knowledge.HasModel(cfg.Knowledge) {
		// Before the first learn: policy.yaml alone, if a person wrote one.
		rules, groups, err := knowledge.LoadPolicy(cfg.Knowledge)
		if err != nil {
			r.pol.err = err
			return nil, err
		}
		r.pol.p, r.pol.groups = policy.New(rules), groups
		return r.pol.p, nil
	}
	f, err := r.folder(cfg)
	if err != nil {
		r.pol.err = quarry.Wrap(quarry.KindOf(err), err, "%s; quarry reads the restricted columns from the knowledge folder, so it runs nothing until the folder loads", quarry.Message(err))
		return nil, r.pol.err
	}
	r.pol.p, r.pol.groups = policy.FromModel(f.Model), f.Groups
	return r.pol.p, nil
}

// openSQLite opens a SQLite connection of the project, with the project's
// column policy in its authorizer.
func (r *Runtime) openSQLite(ctx context.Context, cfg *config.Config, cc *config.Connection) (*sqlite.Conn, error) {
	if r.pol.loaded || r.pol.off {
		p, err := r.Policy()
		if err != nil {
			return nil, err
		}
		return openSQLiteWith(ctx, cfg, cc, p)
	}
	// The file opens, and SQLite reads its schema, while the policy loads
	// from the knowledge folder: on ten thousand tables each takes about
	// a tenth of a second. The connection runs nothing of the user's
	// until it has the policy (sqlite.Options.PolicyLater).
	type opened struct {
		c   *sqlite.Conn
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		c, err := sqlite.Open(ctx, cc.Path, sqlite.Options{ExtraFunctions: cfg.Guard.ExtraFunctions, Name: cc.Name, PolicyLater: true})
		ch <- opened{c, err}
	}()
	p, err := r.Policy()
	o := <-ch
	switch {
	case err != nil:
		if o.c != nil {
			o.c.Close()
		}
		return nil, err
	case o.err != nil:
		return nil, o.err
	}
	o.c.SetPolicy(p)
	return o.c, nil
}

// openSQLiteWith opens a SQLite connection of the project with the column
// policy p in its authorizer.
func openSQLiteWith(ctx context.Context, cfg *config.Config, cc *config.Connection, p *policy.Policy) (*sqlite.Conn, error) {
	return sqlite.Open(ctx, cc.Path, sqlite.Options{ExtraFunctions: cfg.Guard.ExtraFunctions, Name: cc.Name, Policy: p})
}

// ConnGuard builds the guard of statements on conn: the lexical guard,
// the engine's own verdict, and the column policy. On a SQLite connection
// quarry opened, SQLite decides both on the real schema: the statement is
// prepared on a connection of its own (so checks never wait for a running
// query), under the authorizer that also refuses restricted columns. On
// other connections the policy decides from the statement's parse and the
// connection's catalog.
func (r *Runtime) ConnGuard(ctx context.Context, conn connector.Conn) (analyst.Guard, func(), error) {
	return r.connGuard(ctx, conn, false)
}

// connGuard is ConnGuard; shared checks statements on a SQLite conn itself
// instead of a second connection, for one command at a time (Analyst),
// which never checks a statement while a query streams: it saves reading
// the schema a second time (half a second on 10,000 tables).
func (r *Runtime) connGuard(ctx context.Context, conn connector.Conn, shared bool) (analyst.Guard, func(), error) {
	p, err := r.Policy()
	if err != nil {
		return nil, nil, err
	}
	return r.connGuardWith(ctx, conn, shared, p)
}

// connGuardWith is connGuard under the column policy p.
func (r *Runtime) connGuardWith(ctx context.Context, conn connector.Conn, shared bool, p *policy.Policy) (analyst.Guard, func(), error) {
	var err error
	// The catalog: for the policy, and on PostgreSQL for the guard, which
	// tells a column t.f from the function call f(t) with it. Without it
	// every relation would be unknown to the policy and every statement
	// that reads one refused: a failed read is reported now instead.
	var cat *quarry.Catalog
	if _, local := conn.(*sqlite.Conn); !local && (!p.Empty() || conn.Dialect() == quarry.DialectPostgres) {
		if cat, err = r.Catalog(ctx, conn); err != nil {
			if !p.Empty() {
				return nil, nil, err
			}
			cat = nil // the guard then reads t.f more strictly
		}
	}
	g, err := r.BaseGuard(conn.Dialect(), cat)
	if err != nil {
		return nil, nil, err
	}
	if sc, ok := conn.(*sqlite.Conn); ok && shared {
		return g.OnConn(sc), func() { g.Close() }, nil
	}
	if sc, ok := conn.(*sqlite.Conn); ok {
		cfg, err := r.Config()
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		cc := &config.Connection{Path: sc.Path(), Name: sc.Identity().Name}
		check, err := openSQLiteWith(ctx, cfg, cc, p)
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		return g.OnConn(check), func() { check.Close(); g.Close() }, nil
	}
	if !p.Empty() && conn.Dialect() == quarry.DialectSQLite && cat != nil {
		// A SQLite database behind another program: SQLite's own reading
		// of the statement, on an empty copy of its schema.
		cfg, err := r.Config()
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		check, closeShadow, ok, err := sqliteShadow(ctx, cfg, "schema", cat, schemaOf(ctx, conn), p)
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		if ok {
			return g.OnConn(check), func() { closeShadow(); g.Close() }, nil
		}
	}
	if !p.Empty() {
		g = g.WithPolicy(p.For(conn.Dialect(), cat))
	}
	return g, func() { g.Close() }, nil
}

// keepRedacted keeps results through r with restricted columns redacted
// by name first: the lineage check refuses statements that read them, and
// this is the line behind it, so that nothing unredacted is stored.
type keepRedacted struct {
	r analyst.Results
	p *policy.Policy
}

func (k keepRedacted) SaveResult(ctx context.Context, runID string, t *quarry.Table) (id, hash string, err error) {
	k.p.Redact(t)
	return k.r.SaveResult(ctx, runID, t)
}

// Results returns where runs keep their results: st, behind redaction; nil
// (results are not kept) when the policy is off for this command.
func (r *Runtime) Results(st analyst.Results) analyst.Results {
	if r.pol.off {
		return nil
	}
	p, _ := r.Policy()
	return resultsWith(st, p)
}

// resultsWith is where runs keep their results under the policy p: st,
// behind redaction.
func resultsWith(st analyst.Results, p *policy.Policy) analyst.Results {
	if p.Empty() {
		return st
	}
	return keepRedacted{r: st, p: p}
}

var _ guard.ConnChecker = (*sqlite.Conn)(nil)

// WithheldViews returns the views of cat that the column policy refuses
// as a whole (they read a restricted column), by lower-case name: the
// connection's own guard decides, as it would for a statement that reads
// the view.
func (r *Runtime) WithheldViews(ctx context.Context, conn connector.Conn, cat *quarry.Catalog) (map[string]bool, error) {
	p, err := r.Policy()
	if err != nil || p.Empty() {
		return nil, err
	}
	g, closeGuard, err := r.ConnGuard(ctx, conn)
	if err != nil {
		return nil, err
	}
	defer closeGuard()
	return withheldBy(ctx, g, conn.Dialect(), cat), nil
}

// withheldBy returns the views of cat that the guard g refuses as a whole
// under the column policy, by lower-case name.
func withheldBy(ctx context.Context, g analyst.Guard, d quarry.Dialect, cat *quarry.Catalog) map[string]bool {
	open, close := `"`, `"`
	if d == quarry.DialectMySQL {
		open, close = "`", "`"
	}
	out := map[string]bool{}
	for _, t := range cat.Tables {
		if !t.View {
			continue
		}
		name := open + strings.ReplaceAll(t.Name, close, close+close) + close
		for _, v := range g.Check(ctx, "SELECT 1 FROM "+name).Violations {
			if v.Code == policy.Code {
				out[strings.ToLower(t.Name)] = true
			}
		}
	}
	return out
}

// PolicyOff turns the column policy off for this runtime's command: quarry
// run --no-policy, at the user's own terminal. Runs record it, and their
// results are not kept.
func (r *Runtime) PolicyOff() { r.pol.off = true }

// NewGuard builds the guard for a dialect without a connection: the
// lexical guard plus the engine's own verdict where this build has it (see
// internal/guard). Statements that run on a connection get ConnGuard's.
func (r *Runtime) NewGuard(d quarry.Dialect) (analyst.Guard, func(), error) {
	g, err := r.BaseGuard(d, nil)
	if err != nil {
		return nil, nil, err
	}
	return g, func() { g.Close() }, nil
}

// BaseGuard is the guard of a dialect with the project's guard settings,
// when there is a project, and, when known, the connection's catalog
// (PostgreSQL's parser check resolves attribute notation, t.f, against
// it).
func (r *Runtime) BaseGuard(d quarry.Dialect, cat *quarry.Catalog) (*guard.Guard, error) {
	opts := sqlguard.Options{Dialect: d, Catalog: cat}
	if cfg, err := r.Config(); err == nil {
		opts.ExtraFunctions = cfg.Guard.ExtraFunctions
		opts.MaxBytes = cfg.Limits.MaxStatementBytes
	}
	return guard.New(opts)
}

// ExtraFunctions returns the project's guard.extra_functions, when a
// project is found.
func (r *Runtime) ExtraFunctions() []string {
	if cfg, err := r.Config(); err == nil {
		return cfg.Guard.ExtraFunctions
	}
	return nil
}
