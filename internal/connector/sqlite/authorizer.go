package sqlite

import (
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/policy"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
	"github.com/quarrydata/quarry/internal/sqlguard/sqlitecheck"
)

// authorizer decides, while SQLite prepares a statement, which actions the
// statement may take. The policy is the guard's own (sqlitecheck.Authorizer
// with the guard's SQLite function allow-list plus Options.ExtraFunctions):
// SELECT, reads, recursive CTEs and allow-listed functions; everything else
// (writes, DDL, PRAGMA, ATTACH, transactions) is denied; the read-only
// introspection pragmas (pragma_table_info(...) and its siblings) are
// decided there too, the same for the guard and the connector. The
// connector adds two rules: user statements may read only the main schema,
// and never a column the project's policy restricts (SQLITE_READ names
// every column a statement reads, through stars, views, CTEs, subqueries
// and every clause, so SQLite itself decides the lineage; a view that
// reads a restricted column is refused whole, because the engine may
// compute, order by or fail on a column nobody selected) nor SQLite's
// statistics tables, whose samples hold values of every indexed column.
// The connector's own catalog statements run with internal set.
type authorizer struct {
	base     sqlitecheck.AuthorizerFunc
	policy   *policy.Policy
	internal bool
	// pending is set until a connection opened with PolicyLater has its
	// policy: every action but the connector's own is refused.
	pending bool
	// denied describes the last action refused, for the error message;
	// restricted is the restricted column it read, if that was why.
	denied     string
	restricted string
	// shadows are the tables SQLite keeps for the virtual tables of the
	// schema (VirtualShadows), lower-cased, and prefixes the names of
	// virtual tables of modules quarry does not know, with "_" after.
	shadows  map[string]bool
	prefixes []string
}

// shadowTable reports whether name is a table SQLite keeps for a virtual
// table of the schema.
func (a *authorizer) shadowTable(name string) bool {
	n := strings.ToLower(name)
	if a.shadows[n] {
		return true
	}
	for _, p := range a.prefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

func newAuthorizer(extra []string, p *policy.Policy) *authorizer {
	a := &authorizer{policy: p}
	funcs := sqlguard.Options{Dialect: quarry.DialectSQLite, ExtraFunctions: extra}
	a.base = sqlitecheck.Authorizer(funcs.AllowsFunction, func(d sqlitecheck.Denial) {
		a.denied = d.String()
	})
	return a
}

func (a *authorizer) authorize(action sqlite3.AuthorizerActionCode, name3rd, name4th, schema, inner string) sqlite3.AuthorizerReturnCode {
	if a.pending && !a.internal {
		a.denied = "running a statement before the column policy is loaded"
		return sqlite3.AUTH_DENY
	}
	if action == sqlite3.AUTH_READ && !a.internal {
		if schema != "" && schema != "main" {
			a.denied = "reading from schema " + schema
			return sqlite3.AUTH_DENY
		}
		if a.policy.Denies(name3rd, name4th) {
			a.denied = "reading " + name3rd + "." + name4th + ", a column the policy restricts"
			a.restricted = name3rd + "." + name4th
			return sqlite3.AUTH_DENY
		}
		if !a.policy.Empty() && schemaTable(name3rd) && strings.EqualFold(name4th, "sql") {
			a.denied = "reading " + name3rd + ".sql, whose definitions can copy restricted values as literals"
			a.restricted = name3rd + ".sql"
			return sqlite3.AUTH_DENY
		}
		if !a.policy.Empty() && a.shadowTable(name3rd) {
			// An FTS index's copy of the text and its terms, or an
			// R-tree's nodes: the values of the columns it indexes, which
			// the policy may restrict under other names (found by an
			// attacker's build of such a database: the terms of a
			// restricted column read from notes_fts_data).
			a.denied = "reading " + name3rd + ", a table SQLite keeps for a full-text or spatial index, which copies the values of the columns it indexes"
			a.restricted = name3rd
			return sqlite3.AUTH_DENY
		}
		if !a.policy.Empty() && statTable(name3rd) {
			a.denied = "reading " + name3rd + ", whose samples hold values of restricted columns"
			a.restricted = name3rd
			return sqlite3.AUTH_DENY
		}
		if !a.policy.Empty() && strings.EqualFold(name3rd, "sqlite_sequence") && strings.EqualFold(name4th, "seq") {
			a.denied = "reading sqlite_sequence.seq, the largest value an AUTOINCREMENT key (which may be restricted) has had"
			a.restricted = "sqlite_sequence.seq"
			return sqlite3.AUTH_DENY
		}
		if !a.policy.Empty() && strings.EqualFold(name3rd, "sqlite_stat1") {
			// Its counts count a partial index's condition, which may read
			// a restricted column, and so does whether the index has a row
			// at all (ANALYZE writes none for an index no row meets): the
			// whole table, any column, the rowid too.
			a.denied = "reading sqlite_stat1, whose rows and counts tell whether rows meet a partial index's condition (which may read restricted columns)"
			a.restricted = "sqlite_stat1"
			return sqlite3.AUTH_DENY
		}
	}
	if action == sqlite3.AUTH_PRAGMA && a.internal && strings.EqualFold(name3rd, "schema_version") && name4th == "" {
		return sqlite3.AUTH_OK // read, never set: the connector's own check of the schema's version
	}
	return a.base(action, name3rd, name4th, schema, inner)
}

// schemaTable reports whether name is SQLite's schema table, whose sql
// column holds every definition as written.
func schemaTable(name string) bool {
	switch strings.ToLower(name) {
	case "sqlite_schema", "sqlite_master", "sqlite_temp_schema", "sqlite_temp_master":
		return true
	}
	return false
}

// statTable reports whether name is one of SQLite's statistics tables that
// keep sample rows (sqlite_stat1 keeps only counts, whose stat column is
// refused on its own).
func statTable(name string) bool {
	return strings.EqualFold(name, "sqlite_stat3") || strings.EqualFold(name, "sqlite_stat4")
}
