package sqlite

import (
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// authorizer decides, while SQLite prepares a statement, which actions the
// statement may take. It allows SELECT, reads, recursive CTEs and calls of
// the functions sqlguard allows for SQLite (plus Options.ExtraFunctions), and denies everything else: writes, DDL, PRAGMA,
// ATTACH, transactions. Reading the pragma_* table-valued functions is
// allowed only while internal is true, that is while the connector runs its
// own catalog statements.
type authorizer struct {
	// funcs is quarry's SQL guard allow-list for SQLite, so that the guard
	// and the engine agree on which functions a statement may call.
	funcs    sqlguard.Options
	internal bool
	// denied records the last action refused, for the error message.
	denied string
}

func newAuthorizer(extra []string) *authorizer {
	return &authorizer{funcs: sqlguard.Options{Dialect: quarry.DialectSQLite, ExtraFunctions: extra}}
}

func (a *authorizer) authorize(action sqlite3.AuthorizerActionCode, name3rd, name4th, schema, inner string) sqlite3.AuthorizerReturnCode {
	switch action {
	case sqlite3.AUTH_SELECT, sqlite3.AUTH_RECURSIVE:
		return sqlite3.AUTH_OK
	case sqlite3.AUTH_READ:
		if schema != "" && schema != "main" && !(a.internal && schema == "temp") {
			a.denied = "reading from schema " + schema
			return sqlite3.AUTH_DENY
		}
		if len(name3rd) >= 7 && strings.EqualFold(name3rd[:7], "pragma_") && !a.internal {
			a.denied = "reading " + name3rd
			return sqlite3.AUTH_DENY
		}
		return sqlite3.AUTH_OK
	case sqlite3.AUTH_PRAGMA:
		// The pragma_* table-valued functions run their pragma while the
		// statement steps; only the catalog's own reads get through.
		if a.internal {
			switch strings.ToLower(name3rd) {
			case "table_info", "table_xinfo", "foreign_key_list":
				return sqlite3.AUTH_OK
			}
		}
	case sqlite3.AUTH_FUNCTION:
		if a.funcs.AllowsFunction(name4th) {
			return sqlite3.AUTH_OK
		}
		a.denied = "function " + name4th + "()"
		return sqlite3.AUTH_DENY
	}
	a.denied = actionName(action)
	if name3rd != "" {
		a.denied += " " + name3rd
	}
	return sqlite3.AUTH_DENY
}

func actionName(a sqlite3.AuthorizerActionCode) string {
	switch a {
	case sqlite3.AUTH_INSERT:
		return "INSERT"
	case sqlite3.AUTH_UPDATE:
		return "UPDATE"
	case sqlite3.AUTH_DELETE:
		return "DELETE"
	case sqlite3.AUTH_PRAGMA:
		return "PRAGMA"
	case sqlite3.AUTH_ATTACH:
		return "ATTACH"
	case sqlite3.AUTH_DETACH:
		return "DETACH"
	case sqlite3.AUTH_TRANSACTION:
		return "transaction control"
	case sqlite3.AUTH_SAVEPOINT:
		return "SAVEPOINT"
	case sqlite3.AUTH_ANALYZE:
		return "ANALYZE"
	case sqlite3.AUTH_REINDEX:
		return "REINDEX"
	case sqlite3.AUTH_ALTER_TABLE:
		return "ALTER TABLE"
	case sqlite3.AUTH_CREATE_VTABLE, sqlite3.AUTH_DROP_VTABLE:
		return "virtual table DDL"
	}
	if a >= sqlite3.AUTH_CREATE_INDEX && a <= sqlite3.AUTH_DROP_VIEW {
		return "schema change (CREATE/DROP)"
	}
	return "this kind of statement"
}
