// Package duckdb is DuckDB's SQL dialect (dialect.Dialect).
package duckdb

import (
	"github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/dialect/postgres"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Dialect is DuckDB's.
type Dialect struct{}

var _ dialect.Dialect = Dialect{}

// Name is duckdb.
func (Dialect) Name() quarry.Dialect { return quarry.DialectDuckDB }

// QuoteIdent double-quotes.
func (Dialect) QuoteIdent(s string) string { return dialect.DoubleQuote(s) }

// String doubles single quotes.
func (Dialect) String(s string) string { return dialect.SingleQuote(s) }

// NullSafeEqual is IS NOT DISTINCT FROM.
func (Dialect) NullSafeEqual(a, b string) string { return a + " IS NOT DISTINCT FROM " + b }

// FullJoin: DuckDB has it.
func (Dialect) FullJoin() bool { return true }

// AntiJoinExists: see dialect.Dialect.
func (Dialect) AntiJoinExists() bool { return false }

// NullsLast: DuckDB has NULLS LAST.
func (Dialect) NullsLast() string { return " NULLS LAST" }

// Divisor needs no cast: DuckDB divides in doubles.
func (Dialect) Divisor(x string) string { return "NULLIF(" + x + ", 0)" }

// Grain uses date_trunc, as PostgreSQL does.
func (Dialect) Grain(g dialect.Grain, x string) (string, bool) {
	return postgres.DateTrunc(g, x)
}

// DayOfWeek is EXTRACT(ISODOW), as on Postgres.
func (Dialect) DayOfWeek(x string) string { return postgres.ISODayOfWeek(x) }

// DaysBetween is the seconds between the two as epochs, in days.
// AsText renders x as text.
func (Dialect) AsText(x string) string { return "CAST(" + x + " AS VARCHAR)" }

func (Dialect) DaysBetween(from, to string) string {
	return "((epoch(CAST(" + to + " AS TIMESTAMP)) - epoch(CAST(" + from + " AS TIMESTAMP))) / 86400.0)"
}

// FoldsNames: DuckDB's names are case-insensitive.
func (Dialect) FoldsNames() bool { return true }

// CatalogSQL reads information_schema.
func (Dialect) CatalogSQL() string { return dialect.InformationSchemaCatalog }

// GuardFunctions are the functions beyond the common ones that the guard
// allows on DuckDB: read-only, with no effect outside the statement.
func (Dialect) GuardFunctions() string {
	return `
make_date make_time make_timestamp epoch epoch_ms strftime strptime date_part year month day
hour minute second dayofweek dayofyear week quarter last_day
list_value list_extract list_contains list_sort list_distinct list_aggregate array_length len
string_split str_split regexp_extract regexp_matches contains prefix suffix
arg_max arg_min argmax argmin approx_quantile quantile quantile_cont quantile_disc
histogram count_if countif list flatten unnest generate_series struct_pack struct_extract
json_extract_string json_structure json_keys typeof current_database current_schema version`
}
