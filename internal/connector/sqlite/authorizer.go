package sqlite

import (
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/sqlitecheck"
)

// authorizer decides, while SQLite prepares a statement, which actions the
// statement may take. The policy is the guard's own (sqlitecheck.Authorizer
// with the guard's SQLite function allow-list plus Options.ExtraFunctions):
// SELECT, reads, recursive CTEs and allow-listed functions; everything else
// (writes, DDL, PRAGMA, ATTACH, transactions) is denied. The connector is
// stricter on three points: user statements may read only the main schema,
// may not read the pragma_* table-valued functions and may not run any
// PRAGMA; only the connector's own catalog statements use those (while
// internal is true).
type authorizer struct {
	base     sqlitecheck.AuthorizerFunc
	internal bool
	// denied describes the last action refused, for the error message.
	denied string
}

func newAuthorizer(extra []string) *authorizer {
	a := &authorizer{}
	funcs := sqlguard.Options{Dialect: quarry.DialectSQLite, ExtraFunctions: extra}
	a.base = sqlitecheck.Authorizer(funcs.AllowsFunction, func(d sqlitecheck.Denial) {
		a.denied = d.String()
	})
	return a
}

func (a *authorizer) authorize(action sqlite3.AuthorizerActionCode, name3rd, name4th, schema, inner string) sqlite3.AuthorizerReturnCode {
	if action == sqlite3.AUTH_READ && !a.internal {
		if schema != "" && schema != "main" {
			a.denied = "reading from schema " + schema
			return sqlite3.AUTH_DENY
		}
		if len(name3rd) >= 7 && strings.EqualFold(name3rd[:7], "pragma_") {
			a.denied = "reading " + name3rd
			return sqlite3.AUTH_DENY
		}
	}
	if action == sqlite3.AUTH_PRAGMA && !a.internal {
		a.denied = "PRAGMA " + name3rd
		return sqlite3.AUTH_DENY
	}
	return a.base(action, name3rd, name4th, schema, inner)
}
