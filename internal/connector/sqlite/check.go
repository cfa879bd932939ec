package sqlite

import (
	"context"

	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/sqlitecheck"
)

// Check returns SQLite's own verdict on sql against this database's real
// schema: the statement is prepared (never stepped) on the connection,
// under the same authorizer and the same rules Query applies — one
// read-only statement, allow-listed functions, the main schema only, and
// no column the policy restricts. It is the guard's engine check for a
// connection quarry opened itself; Query then prepares the same statement
// under the same authorizer again, so what runs is what was checked.
//
// Checks wait for one another (a server's guard checks concurrent
// requests on one connection kept for checking); a check still fails
// rather than wait while a query streams on the same connection.
func (c *Conn) Check(ctx context.Context, sql string, _ sqlguard.Options) sqlguard.Verdict {
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	v := sqlguard.Verdict{Dialect: quarry.DialectSQLite}
	reject := func(code, msg string) sqlguard.Verdict {
		v.Violations = append(v.Violations, sqlguard.Violation{Code: code, Message: msg})
		return v
	}
	if err := c.acquire(); err != nil {
		return reject(sqlitecheck.CodeEngineUnchecked, "the connection is busy or closed; the statement was not checked, so it does not run")
	}
	defer c.release()
	c.db.SetInterrupt(ctx)
	defer c.db.SetInterrupt(context.Background())
	stmt, err := c.prepareOne(ctx, sql, 0)
	if err != nil {
		switch {
		case c.auth.restricted != "":
			return reject(policy.Code, quarry.Message(err))
		case ctx.Err() != nil:
			return reject(sqlitecheck.CodeEngineUnchecked, "the engine check was cancelled before it finished; the statement does not run")
		case quarry.KindOf(err) == quarry.KindRejected || quarry.KindOf(err) == quarry.KindForbidden:
			return reject(sqlitecheck.CodeEngineDenied, quarry.Message(err))
		}
		if c.copy {
			return reject(sqlitecheck.CodeEngineUnchecked, "quarry cannot check this statement on its copy of the database's schema ("+quarry.Message(err)+"), so it does not run; name only the tables and columns the schema lists")
		}
		// An error of the statement itself (no such column, a syntax
		// error): it cannot run at all, and Query reports the same
		// error as the database's when it prepares it under the same
		// authorizer, where the repair loop can classify it.
		v.Allowed = true
		return v
	}
	defer stmt.Close()
	if stmt.ColumnCount() == 0 {
		return reject(sqlitecheck.CodeEngineNoResult, "the statement returns no result columns, so it is not a query; send a SELECT")
	}
	v.Allowed = true
	return v
}
