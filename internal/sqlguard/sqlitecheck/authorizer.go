package sqlitecheck

import (
	"fmt"
	"strings"

	"github.com/ncruces/go-sqlite3"
)

// AuthorizerFunc is the callback type of sqlite3.Conn.SetAuthorizer.
type AuthorizerFunc = func(action sqlite3.AuthorizerActionCode, name3rd, name4th, schema, inner string) sqlite3.AuthorizerReturnCode

// Denial is one action the authorizer refused.
type Denial struct {
	Action sqlite3.AuthorizerActionCode
	Name   string // the table, function, pragma or file the action names
	Arg    string // the second name SQLite passes (a column, pragma argument ...)
}

// String describes the denial for a user, e.g. "PRAGMA query_only".
func (d Denial) String() string {
	name := actionNames[d.Action]
	if name == "" {
		name = fmt.Sprintf("action %d", d.Action)
	}
	switch {
	case d.Name != "" && d.Arg != "":
		return name + " " + d.Name + " " + d.Arg
	case d.Name != "":
		return name + " " + d.Name
	case d.Arg != "":
		return name + " " + d.Arg
	}
	return name
}

var actionNames = map[sqlite3.AuthorizerActionCode]string{
	sqlite3.AUTH_CREATE_INDEX: "CREATE INDEX", sqlite3.AUTH_CREATE_TABLE: "CREATE TABLE",
	sqlite3.AUTH_CREATE_TEMP_INDEX: "CREATE TEMP INDEX", sqlite3.AUTH_CREATE_TEMP_TABLE: "CREATE TEMP TABLE",
	sqlite3.AUTH_CREATE_TEMP_TRIGGER: "CREATE TEMP TRIGGER", sqlite3.AUTH_CREATE_TEMP_VIEW: "CREATE TEMP VIEW",
	sqlite3.AUTH_CREATE_TRIGGER: "CREATE TRIGGER", sqlite3.AUTH_CREATE_VIEW: "CREATE VIEW",
	sqlite3.AUTH_DELETE: "DELETE FROM", sqlite3.AUTH_DROP_INDEX: "DROP INDEX",
	sqlite3.AUTH_DROP_TABLE: "DROP TABLE", sqlite3.AUTH_DROP_TEMP_INDEX: "DROP TEMP INDEX",
	sqlite3.AUTH_DROP_TEMP_TABLE: "DROP TEMP TABLE", sqlite3.AUTH_DROP_TEMP_TRIGGER: "DROP TEMP TRIGGER",
	sqlite3.AUTH_DROP_TEMP_VIEW: "DROP TEMP VIEW", sqlite3.AUTH_DROP_TRIGGER: "DROP TRIGGER",
	sqlite3.AUTH_DROP_VIEW: "DROP VIEW", sqlite3.AUTH_INSERT: "INSERT INTO",
	sqlite3.AUTH_PRAGMA: "PRAGMA", sqlite3.AUTH_READ: "READ", sqlite3.AUTH_SELECT: "SELECT",
	sqlite3.AUTH_TRANSACTION: "TRANSACTION", sqlite3.AUTH_UPDATE: "UPDATE",
	sqlite3.AUTH_ATTACH: "ATTACH", sqlite3.AUTH_DETACH: "DETACH", sqlite3.AUTH_ALTER_TABLE: "ALTER TABLE",
	sqlite3.AUTH_REINDEX: "REINDEX", sqlite3.AUTH_ANALYZE: "ANALYZE",
	sqlite3.AUTH_CREATE_VTABLE: "CREATE VIRTUAL TABLE", sqlite3.AUTH_DROP_VTABLE: "DROP VIRTUAL TABLE",
	sqlite3.AUTH_FUNCTION: "function", sqlite3.AUTH_SAVEPOINT: "SAVEPOINT",
	sqlite3.AUTH_RECURSIVE: "RECURSIVE",
}

// Authorizer returns an SQLite authorizer that allows only what a
// read-only query needs: SELECT, READ of any table or column (except the
// raw-page tables sqlite_dbpage, sqlite_dbdata, sqlite_dbptr and dbstat), RECURSIVE
// (recursive CTEs), FUNCTION calls for which allowed returns true, and the
// schema-introspection pragmas that pragma_table_info(...) and its
// siblings run when stepped (table_info, table_xinfo, table_list,
// index_list, index_info, index_xinfo, foreign_key_list). It
// denies everything else, including ATTACH (which sqlite3_stmt_readonly
// reports as read-only), PRAGMA, transactions, savepoints and temporary
// DDL. denied, when not nil, is told of every refusal.
//
// The connector installs the same authorizer on the connection it runs
// queries on, so the engine check and execution share one policy.
func Authorizer(allowed func(name string) bool, denied func(Denial)) AuthorizerFunc {
	return func(action sqlite3.AuthorizerActionCode, name3rd, name4th, schema, inner string) sqlite3.AuthorizerReturnCode {
		switch action {
		case sqlite3.AUTH_SELECT, sqlite3.AUTH_RECURSIVE:
			return sqlite3.AUTH_OK
		case sqlite3.AUTH_READ:
			// A table-valued pragma written as a table (FROM
			// pragma_page_count) runs its pragma only when stepped; its
			// columns are read here, so it is refused before it runs.
			if p, ok := pragmaTable(name3rd); ok && !readOnlyPragma(p) {
				if denied != nil {
					denied(Denial{Action: sqlite3.AUTH_PRAGMA, Name: p})
				}
				return sqlite3.AUTH_DENY
			}
			if !rawPageTable(name3rd) {
				return sqlite3.AUTH_OK
			}
		case sqlite3.AUTH_PRAGMA:
			// The table-valued pragma functions (pragma_table_info(...))
			// run their pragma when stepped; allow the introspection ones,
			// which only read and have no setter form.
			if readOnlyPragma(name3rd) {
				return sqlite3.AUTH_OK
			}
		case sqlite3.AUTH_FUNCTION:
			if allowed != nil && allowed(name4th) {
				return sqlite3.AUTH_OK
			}
			if denied != nil {
				denied(Denial{Action: action, Name: name4th + "()"})
			}
			return sqlite3.AUTH_DENY
		}
		if denied != nil {
			denied(Denial{Action: action, Name: name3rd, Arg: name4th})
		}
		return sqlite3.AUTH_DENY
	}
}

// rawPageTable reports whether name is a virtual table that exposes the
// database file's raw pages, which would step around column policies.
func rawPageTable(name string) bool {
	switch strings.ToLower(name) {
	case "sqlite_dbpage", "sqlite_dbdata", "sqlite_dbptr", "dbstat":
		return true
	}
	return false
}

// pragmaTable returns the pragma of a table-valued pragma's table name
// (pragma_page_count → page_count).
func pragmaTable(name string) (string, bool) {
	if len(name) > len("pragma_") && strings.EqualFold(name[:len("pragma_")], "pragma_") {
		return name[len("pragma_"):], true
	}
	return "", false
}

func readOnlyPragma(name string) bool {
	switch strings.ToLower(name) {
	case "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list":
		return true
	}
	return false
}
