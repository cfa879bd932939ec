package guard

import (
	"context"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/pgparse"
)

// postgresEngine returns PostgreSQL's own parser as the engine check. In a
// build without cgo it is pgparse's lexer-only fallback, which rejects
// more (pgparse.Available reports which one runs).
func postgresEngine() Engine { return pgEngine{} }

// pgEngine checks statements with pgparse.Check. It holds no resources.
type pgEngine struct{}

func (pgEngine) Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict {
	if ctx.Err() != nil {
		return sqlguard.Verdict{Dialect: quarry.DialectPostgres, Violations: []sqlguard.Violation{{
			Code: pgparse.CodeEngineUnchecked, Pos: 0,
			Message: "the PostgreSQL check was cancelled before it ran; treat the statement as rejected"}}}
	}
	return pgparse.Check(sql, opts)
}

func (pgEngine) Close() error { return nil }
