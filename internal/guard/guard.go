// Package guard composes quarry's read-only guard for one dialect: the
// lexical guard (sqlguard.Check), then the engine's own verdict where Go has
// the engine's grammar — SQLite itself for sqlite, PostgreSQL's parser for
// postgres, the MySQL parser for mysql. A statement runs only when every
// layer allows it.
package guard

import (
	"context"

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
	return g, nil
}

// Check returns the combined verdict on sql: allowed only when the lexical
// guard and the engine both allow it.
func (g *Guard) Check(ctx context.Context, sql string) sqlguard.Verdict {
	lex := sqlguard.Check(sql, g.opts)
	if !lex.Allowed || g.engine == nil {
		return lex
	}
	return sqlguard.Merge(lex, g.engine.Check(ctx, sql, g.opts))
}

// Engine reports whether an engine-level check backs the lexical guard.
func (g *Guard) Engine() bool { return g.engine != nil }

// Close releases the engine check's resources.
func (g *Guard) Close() error {
	if g.engine == nil {
		return nil
	}
	return g.engine.Close()
}

type sqliteEngine struct{ c *sqlitecheck.Checker }

func (e sqliteEngine) Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict {
	return e.c.Check(ctx, sql, opts)
}

func (e sqliteEngine) Close() error { return e.c.Close() }
