// Package dialect is how quarry speaks each SQL engine: one package per
// dialect (sqlite, postgres, mysql, duckdb) implements the Dialect
// interface, and package registry lists them. The semantic compiler, learn
// and the agent ask the registry for quoting, literals, time grains and the
// other pieces of SQL that differ between engines, instead of switching on
// the dialect's name.
//
// Adding a dialect: a package beside these four that implements Dialect
// (Base gives the parts most engines share), and one line in
// registry.Dialects. The guard's function allow-list is the dialect's
// (GuardFunctions); the engine's own parser check (package guard, which
// links cgo and grammar code these pure packages must not), the lexer's
// per-engine quoting rules (sqlguard) and the connector are chosen by
// name elsewhere; docs/ARCHITECTURE.md lists where.
//
// This package and its dialects do no I/O.
package dialect

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Grain is a period length a time dimension is truncated to.
type Grain string

// The grains.
const (
	Day     Grain = "day"
	Week    Grain = "week"
	Month   Grain = "month"
	Quarter Grain = "quarter"
	Year    Grain = "year"
)

// Dialect renders the parts of SQL that differ between engines.
type Dialect interface {
	// Name is the dialect's name in quarry.yaml and in events.
	Name() quarry.Dialect
	// QuoteIdent quotes an identifier, always.
	QuoteIdent(s string) string
	// String renders a string literal.
	String(s string) string
	// NullSafeEqual renders an equality that holds when both sides are NULL.
	NullSafeEqual(a, b string) string
	// FullJoin reports whether the engine runs a FULL OUTER JOIN whose
	// condition is NullSafeEqual (the compiler joins measures computed
	// apart on their groups that way, a NULL group being one group).
	FullJoin() bool
	// AntiJoinExists reports whether the engine runs a correlated NOT
	// EXISTS as a hash anti-join, and NOT IN a subquery larger than its
	// working memory once per outer row (PostgreSQL: 0.3 s against more
	// than 60 s for 400,000 rows against 1,200,000): there the compiler
	// writes none as NOT EXISTS. Elsewhere NOT IN runs the subquery once
	// (SQLite would run a correlated NOT EXISTS once per row).
	AntiJoinExists() bool
	// NullsLast is what follows a sort term (after DESC, if any) so that
	// rows whose value is NULL come last whichever the direction: a
	// missing figure is never the top or the bottom of a ranking. "" where
	// the engine has no such clause (MySQL, which already sorts NULLs
	// last in descending order).
	NullsLast() string
	// Divisor wraps a denominator so that zero gives NULL and the division
	// is done in floating point.
	Divisor(x string) string
	// Grain renders the start of the period of grain g containing x, as a
	// value that reads and sorts as 'YYYY-MM-DD'; weeks start on Monday.
	// It reports false for a grain it does not know.
	Grain(g Grain, x string) (string, bool)
	// DayOfWeek renders the ISO day of the week of x as an integer:
	// 1 for Monday through 7 for Sunday.
	DayOfWeek(x string) string
	// DaysBetween renders the days from one date or timestamp to another
	// as a number, with fractions of a day; NULL where either is NULL.
	DaysBetween(from, to string) string
	// AsText renders x, a column the catalog reads as text, as text
	// itself, so that a column of another type read as text (a UUID, an
	// enum) compares with a string too.
	AsText(x string) string
	// FoldsNames reports whether unquoted names are case-insensitive, so
	// that two statements differing only in their case read the same
	// tables (not so on MySQL, where table names can be case-sensitive).
	FoldsNames() bool
	// CatalogSQL lists every column of every user table and view, one row
	// per column, as (table_schema, table_name, table_type, column_name,
	// data_type, is_nullable, is_pk), ordered by table and column
	// position; connectors that can only run SQL describe a database with
	// it.
	CatalogSQL() string
	// GuardFunctions lists, space-separated and lower case, the functions
	// beyond sqlguard's common ones that the guard allows on this engine:
	// read-only, with no effect outside the statement. A function on
	// sqlguard's never-allowed list stays refused whatever this says.
	GuardFunctions() string
}

// InformationSchemaCatalog is CatalogSQL through information_schema, for
// the engines that have it.
const InformationSchemaCatalog = `SELECT c.table_schema, c.table_name, t.table_type, c.column_name, c.data_type, c.is_nullable, 0 AS is_pk FROM information_schema.columns AS c JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema', 'mysql', 'performance_schema', 'sys') ORDER BY c.table_schema, c.table_name, c.ordinal_position`

// Ident quotes s for d only when it needs it: a lower-case name of letters,
// digits and _ that is a reserved word in none of quarry's dialects stays
// as it is.
func Ident(d Dialect, s string) string {
	plain := s != "" && (s[0] == '_' || 'a' <= s[0] && s[0] <= 'z') && !isReserved(s)
	for i := 0; plain && i < len(s); i++ {
		c := s[i]
		plain = c == '_' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
	}
	if plain {
		return s
	}
	return d.QuoteIdent(s)
}

// DoubleQuote quotes an identifier the SQL standard's way.
func DoubleQuote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// SingleQuote renders a standard string literal (quotes doubled).
func SingleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// isReserved reports whether s (lower case) must be quoted as an
// identifier in at least one of the dialects quarry compiles for.
func isReserved(s string) bool {
	switch s {
	case "all", "and", "any", "as", "asc", "between", "by", "case", "cast", "check",
		"column", "constraint", "create", "cross", "current", "current_date",
		"current_time", "current_timestamp", "current_user", "default", "delete",
		"desc", "distinct", "drop", "else", "end", "except", "exists", "false",
		"fetch", "for", "foreign", "from", "full", "group", "having", "in", "index",
		"inner", "insert", "interval", "intersect", "into", "is", "join", "key",
		"left", "like", "limit", "natural", "not", "null", "offset", "on", "or",
		"order", "outer", "over", "partition", "primary", "range", "references",
		"right", "row", "rows", "select", "set", "some", "table", "then", "to", "true",
		"union", "unique", "update", "user", "using", "values", "when", "where",
		"window", "with":
		return true
	}
	return false
}
