// Package sqlite is SQLite's SQL dialect (dialect.Dialect).
package sqlite

import (
	"github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Dialect is SQLite's.
type Dialect struct{}

var _ dialect.Dialect = Dialect{}

// Name is sqlite.
func (Dialect) Name() quarry.Dialect { return quarry.DialectSQLite }

// QuoteIdent double-quotes.
func (Dialect) QuoteIdent(s string) string { return dialect.DoubleQuote(s) }

// String doubles single quotes.
func (Dialect) String(s string) string { return dialect.SingleQuote(s) }

// NullSafeEqual is IS.
func (Dialect) NullSafeEqual(a, b string) string { return a + " IS " + b }

// FullJoin: SQLite has FULL OUTER JOIN since 3.39.
func (Dialect) FullJoin() bool { return true }

// AntiJoinExists: see dialect.Dialect.
func (Dialect) AntiJoinExists() bool { return false }

// NullsLast: SQLite has NULLS LAST since 3.30.
func (Dialect) NullsLast() string { return " NULLS LAST" }

// Divisor casts to REAL, since SQLite divides integers as integers.
func (Dialect) Divisor(x string) string { return "NULLIF(CAST(" + x + " AS REAL), 0)" }

// Grain uses date() and strftime().
func (Dialect) Grain(g dialect.Grain, x string) (string, bool) {
	switch g {
	case dialect.Day:
		return "date(" + x + ")", true
	case dialect.Week:
		// 'weekday 0' moves forward to the next Sunday (or stays on one);
		// six days back is that week's Monday.
		return "date(" + x + ", 'weekday 0', '-6 days')", true
	case dialect.Month:
		return "strftime('%Y-%m-01', " + x + ")", true
	case dialect.Quarter:
		return "printf('%s-%02d-01', strftime('%Y', " + x + "), (CAST(strftime('%m', " + x + ") AS INTEGER) - 1) / 3 * 3 + 1)", true
	case dialect.Year:
		return "strftime('%Y-01-01', " + x + ")", true
	}
	return "", false
}

// DayOfWeek moves strftime('%w') (0 for Sunday) to ISO's 1 for Monday
// through 7 for Sunday.
func (Dialect) DayOfWeek(x string) string {
	return "((CAST(strftime('%w', " + x + ") AS INTEGER) + 6) % 7 + 1)"
}

// DaysBetween is the difference of the two Julian day numbers (dates
// stored as text, as the grains read them).
// AsText renders x as text.
func (Dialect) AsText(x string) string { return x }

func (Dialect) DaysBetween(from, to string) string {
	return "(julianday(" + to + ") - julianday(" + from + "))"
}

// FoldsNames: SQLite's names are case-insensitive.
func (Dialect) FoldsNames() bool { return true }

// CatalogSQL reads sqlite_master and pragma_table_info.
func (Dialect) CatalogSQL() string {
	return `SELECT '' AS table_schema, m.name AS table_name, m.type AS table_type, p.name AS column_name, p.type AS data_type, CASE WHEN p."notnull" = 1 THEN 'NO' ELSE 'YES' END AS is_nullable, p.pk AS is_pk FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY m.name, p.cid`
}

// GuardFunctions are the functions beyond the common ones that the guard
// allows on SQLite: read-only, with no effect outside the statement.
func (Dialect) GuardFunctions() string {
	return `
strftime julianday date datetime time unixepoch timediff printf format typeof sqlite_version
sqlite_source_id quote regexp likelihood likely unlikely glob like match -> ->> total
json jsonb json_array_length json_error_position json_insert json_patch json_pretty
json_remove json_replace json_set json_group_array json_group_object json_tree
jsonb_array jsonb_extract jsonb_group_array jsonb_group_object jsonb_insert jsonb_object
jsonb_patch jsonb_remove jsonb_replace jsonb_set
pragma_table_info pragma_table_xinfo pragma_table_list pragma_index_list pragma_index_info
pragma_index_xinfo pragma_foreign_key_list generate_series`
}
