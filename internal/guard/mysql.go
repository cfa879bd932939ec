package guard

import (
	"context"

	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/mysqlparse"
)

// mysqlEngine returns the MySQL parser as the engine check, reading
// statements in MySQL 8's default sql_mode until the server's own mode is
// passed in.
func mysqlEngine() Engine { return mysqlCheck{mysqlparse.New(mysqlparse.DefaultSQLMode)} }

// mysqlCheck adapts a mysqlparse.Checker to Engine.
type mysqlCheck struct{ c *mysqlparse.Checker }

func (e mysqlCheck) Check(ctx context.Context, sql string, opts sqlguard.Options) sqlguard.Verdict {
	return e.c.Check(ctx, sql, opts)
}

// Close has nothing to release: the checker holds only pooled parsers.
func (e mysqlCheck) Close() error { return nil }
