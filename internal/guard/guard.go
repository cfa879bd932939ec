// Package guard composes quarry's read-only guard for one dialect: the
// lexical guard (sqlguard.Check), then the engine's own verdict where Go has
// the engine's grammar — SQLite itself for sqlite, PostgreSQL's parser for
// postgres, the MySQL parser for mysql. A statement runs only when every
// layer allows it.
package guard

import (
	"context"

	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/sqlitecheck"
)

// Engine is one dialect's engine-level check, run after the lexical guard
// has allowed a statement.
type Engine interface {
	Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict
	Close() error
}

// Guard checks statements for one dialect. It is safe for concurrent use.
type Guard struct {
	opts   sqlguard.Options
	engine Engine // nil where the dialect has no engine check in this build
	own    Engine // the engine check of New, closed by Close
	policy *policy.Checker
}

// ConnChecker is a connection that gives the engine's own verdict on a
// statement against its real schema (the SQLite connector).
type ConnChecker interface {
	Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict
}

// OnConn returns a copy of g whose engine check is conn's: the statement
// is prepared against the connection's real schema, under the
// connection's own authorizer (which also holds the column policy),
// instead of a synthesised one.
func (g *Guard) OnConn(conn ConnChecker) *Guard {
	c := *g
	c.engine = connEngine{conn}
	return &c
}

// WithPolicy returns a copy of g that also refuses statements reading a
// column the policy restricts, as c decides from the statement's parse and
// the connection's catalog. A nil c changes nothing.
func (g *Guard) WithPolicy(c *policy.Checker) *Guard {
	cp := *g
	cp.policy = c
	return &cp
}

// New returns the guard for opts.Dialect.
func New(opts sqlguard.Options) (*Guard, error) {
	g := &Guard{opts: opts}
	switch opts.Dialect {
	case quarry.DialectSQLite:
		c, err := sqlitecheck.New()
		if err != nil {
			return nil, err
		}
		g.engine = sqliteEngine{c}
	default:
		g.engine = engineFor(opts.Dialect)
	}
	g.own = g.engine
	return g, nil
}

// Check returns the combined verdict on sql: allowed only when the lexical
// guard and the engine both allow it.
func (g *Guard) Check(ctx context.Context, sql string) sqlguard.Verdict {
	v := sqlguard.Check(sql, g.opts)
	if !v.Allowed {
		return v
	}
	if g.engine != nil {
		if v = sqlguard.Merge(v, g.engine.Check(ctx, sql, g.opts)); !v.Allowed {
			return v
		}
	}
	if r := g.policy.Check(g.opts.Dialect, sql); r != nil {
		v.Allowed = false
		v.Violations = append(v.Violations, sqlguard.Violation{Code: policy.Code, Pos: max(r.Pos, 0), Message: r.Msg})
	}
	return v
}

// Engine reports whether an engine-level check backs the lexical guard.
func (g *Guard) Engine() bool { return g.engine != nil }

// Close releases the engine check's resources (not a connection's: its
// owner closes it).
func (g *Guard) Close() error {
	if g.own == nil {
		return nil
	}
	return g.own.Close()
}

type connEngine struct{ c ConnChecker }

func (e connEngine) Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict {
	return e.c.Check(ctx, sql, opts)
}

func (connEngine) Close() error { return nil }

type sqliteEngine struct{ c *sqlitecheck.Checker }

func (e sqliteEngine) Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict {
	return e.c.Check(ctx, sql, opts)
}

func (e sqliteEngine) Close() error { return e.c.Close() }
