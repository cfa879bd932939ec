package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/connector"
	"github.com/quarrydata/quarry/internal/connector/sqlite"
	"github.com/quarrydata/quarry/internal/guard"
	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
)

// policyState is the project's column policy, loaded once per command.
type policyState struct {
	loaded bool
	p      *policy.Policy
	err    error
	off    bool // quarry run --no-policy: the user's own terminal, on request
}

// policy returns the project's column policy: the restricted columns of
// its knowledge folder (none when there is no folder yet). A folder that
// cannot be loaded is an error: quarry cannot tell what to withhold, so it
// runs nothing.
func (a *app) policy() (*policy.Policy, error) {
	if a.pol.off {
		return policy.New(nil), nil
	}
	if a.pol.loaded {
		return a.pol.p, a.pol.err
	}
	a.pol.loaded = true
	cfg, err := a.config()
	if err != nil {
		a.pol.err = err
		return nil, err
	}
	if _, err := os.Stat(cfg.Knowledge); errors.Is(err, os.ErrNotExist) {
		a.pol.p = policy.New(nil)
		return a.pol.p, nil
	}
	if _, err := os.Stat(filepath.Join(cfg.Knowledge, knowledge.ModelFile)); errors.Is(err, os.ErrNotExist) {
		// Before the first learn: policy.yaml alone, if a person wrote one.
		rules, err := knowledge.LoadPolicy(cfg.Knowledge)
		if err != nil {
			a.pol.err = err
			return nil, err
		}
		a.pol.p = policy.New(rules)
		return a.pol.p, nil
	}
	f, err := a.folder(cfg)
	if err != nil {
		a.pol.err = quarry.Wrap(quarry.KindOf(err), err, "%s; quarry reads the restricted columns from the knowledge folder, so it runs nothing until the folder loads", quarry.Message(err))
		return nil, a.pol.err
	}
	a.pol.p = policy.FromModel(f.Model)
	return a.pol.p, nil
}

// openSQLite opens a SQLite connection of the project, with the project's
// column policy in its authorizer.
func (a *app) openSQLite(ctx context.Context, cfg *config.Config, cc *config.Connection) (*sqlite.Conn, error) {
	p, err := a.policy()
	if err != nil {
		return nil, err
	}
	return sqlite.Open(ctx, cc.Path, sqlite.Options{ExtraFunctions: cfg.Guard.ExtraFunctions, Name: cc.Name, Policy: p})
}

// connGuard builds the guard of statements on conn: the lexical guard,
// the engine's own verdict, and the column policy. On a SQLite connection
// quarry opened, SQLite decides both on the real schema: the statement is
// prepared on a connection of its own (so checks never wait for a running
// query), under the authorizer that also refuses restricted columns. On
// other connections the policy decides from the statement's parse and the
// connection's catalog.
func (a *app) connGuard(ctx context.Context, conn connector.Conn) (analyst.Guard, func(), error) {
	p, err := a.policy()
	if err != nil {
		return nil, nil, err
	}
	// The catalog: for the policy, and on PostgreSQL for the guard, which
	// tells a column t.f from the function call f(t) with it. Without it
	// every relation would be unknown to the policy and every statement
	// that reads one refused: a failed read is reported now instead.
	var cat *quarry.Catalog
	if _, local := conn.(*sqlite.Conn); !local && (!p.Empty() || conn.Dialect() == quarry.DialectPostgres) {
		if cat, err = a.catalog(ctx, conn); err != nil {
			if !p.Empty() {
				return nil, nil, err
			}
			cat = nil // the guard then reads t.f more strictly
		}
	}
	g, err := a.baseGuard(conn.Dialect(), cat)
	if err != nil {
		return nil, nil, err
	}
	if sc, ok := conn.(*sqlite.Conn); ok {
		cfg, err := a.config()
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		cc := &config.Connection{Path: sc.Path(), Name: sc.Identity().Name}
		check, err := a.openSQLite(ctx, cfg, cc)
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		return g.OnConn(check), func() { check.Close(); g.Close() }, nil
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

// results returns where runs keep their results: st, behind redaction; nil
// (results are not kept) when the policy is off for this command.
func (a *app) results(st analyst.Results) analyst.Results {
	if a.pol.off {
		return nil
	}
	p, _ := a.policy()
	if p.Empty() {
		return st
	}
	return keepRedacted{r: st, p: p}
}

var _ guard.ConnChecker = (*sqlite.Conn)(nil)

// connectorPolicy is the column policy of quarry connector: the project's
// when one is named with --config, else none (the connector then serves
// the database as it is, and says so in docs/mcp.md).
func (a *app) connectorPolicy() (*policy.Policy, error) {
	if a.configFlag == "" {
		return policy.New(nil), nil
	}
	return a.policy()
}

// connectorGuard is connGuard for quarry connector: with a project named by
// --config its policy applies; without one, the guard checks the engine
// verdict on the real schema only.
func (a *app) connectorGuard(ctx context.Context, conn connector.Conn) (analyst.Guard, func(), error) {
	if a.configFlag != "" {
		return a.connGuard(ctx, conn)
	}
	g, err := a.baseGuard(conn.Dialect(), nil)
	if err != nil {
		return nil, nil, err
	}
	if sc, ok := conn.(*sqlite.Conn); ok {
		check, err := sqlite.Open(ctx, sc.Path(), sqlite.Options{ExtraFunctions: a.extraFunctions(), Name: sc.Identity().Name})
		if err != nil {
			g.Close()
			return nil, nil, err
		}
		return g.OnConn(check), func() { check.Close(); g.Close() }, nil
	}
	return g, func() { g.Close() }, nil
}

// extraFunctions returns the project's guard.extra_functions, when a
// project is found.
func (a *app) extraFunctions() []string {
	if cfg, err := a.config(); err == nil {
		return cfg.Guard.ExtraFunctions
	}
	return nil
}

// withheldViews returns the views of cat that the column policy refuses
// as a whole (they read a restricted column), by lower-case name: the
// connection's own guard decides, as it would for a statement that reads
// the view.
func (a *app) withheldViews(ctx context.Context, conn connector.Conn, cat *quarry.Catalog) (map[string]bool, error) {
	p, err := a.policy()
	if err != nil || p.Empty() {
		return nil, err
	}
	g, closeGuard, err := a.connGuard(ctx, conn)
	if err != nil {
		return nil, err
	}
	defer closeGuard()
	open, close := `"`, `"`
	if conn.Dialect() == quarry.DialectMySQL {
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
	return out, nil
}

// folderRead is the knowledge folder as it was loaded, or why it was not.
type folderRead struct {
	f   *knowledge.Folder
	err error
}

// folder loads the knowledge folder once per command: the planner, the
// agent and the column policy all read it.
func (a *app) folder(cfg *config.Config) (*knowledge.Folder, error) {
	if a.kf == nil {
		f, err := knowledge.Load(cfg.Knowledge)
		a.kf = &folderRead{f, err}
	}
	return a.kf.f, a.kf.err
}
