// Package postgres is PostgreSQL's SQL dialect (dialect.Dialect).
package postgres

import (
	"github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Dialect is PostgreSQL's.
type Dialect struct{}

var _ dialect.Dialect = Dialect{}

// Name is postgres.
func (Dialect) Name() quarry.Dialect { return quarry.DialectPostgres }

// QuoteIdent double-quotes.
func (Dialect) QuoteIdent(s string) string { return dialect.DoubleQuote(s) }

// String doubles single quotes (standard_conforming_strings is on; the
// connector refuses a server where it is not).
func (Dialect) String(s string) string { return dialect.SingleQuote(s) }

// NullSafeEqual is IS NOT DISTINCT FROM.
func (Dialect) NullSafeEqual(a, b string) string { return a + " IS NOT DISTINCT FROM " + b }

// FullJoin: PostgreSQL has FULL JOIN, but only on merge- or hash-joinable
// conditions, which IS NOT DISTINCT FROM is not ("FULL JOIN is only
// supported with merge-joinable or hash-joinable join conditions"); the
// compiler joins onto the union of the groups instead.
func (Dialect) FullJoin() bool { return false }

// AntiJoinExists: see dialect.Dialect.
func (Dialect) AntiJoinExists() bool { return true }

// NullsLast: PostgreSQL sorts NULLs first in descending order unless told.
func (Dialect) NullsLast() string { return " NULLS LAST" }

// Divisor casts to DOUBLE PRECISION, since PostgreSQL divides integers as
// integers.
func (Dialect) Divisor(x string) string {
	return "NULLIF(CAST(" + x + " AS DOUBLE PRECISION), 0)"
}

// Grain uses date_trunc, whose weeks start on Monday.
func (Dialect) Grain(g dialect.Grain, x string) (string, bool) {
	return DateTrunc(g, x)
}

// DateTrunc is CAST(date_trunc(g, x) AS DATE), shared with DuckDB.
func DateTrunc(g dialect.Grain, x string) (string, bool) {
	switch g {
	case dialect.Day, dialect.Week, dialect.Month, dialect.Quarter, dialect.Year:
		return "CAST(date_trunc('" + string(g) + "', " + x + ") AS DATE)", true
	}
	return "", false
}

// DayOfWeek is EXTRACT(ISODOW), 1 for Monday through 7 for Sunday.
func (Dialect) DayOfWeek(x string) string { return ISODayOfWeek(x) }

// DaysBetween is the interval's seconds, in days: dates and timestamps
// alike, as timestamps.
// AsText renders x as text.
func (Dialect) AsText(x string) string { return "CAST(" + x + " AS TEXT)" }

func (Dialect) DaysBetween(from, to string) string {
	return "(EXTRACT(EPOCH FROM (CAST(" + to + " AS TIMESTAMP) - CAST(" + from + " AS TIMESTAMP))) / 86400.0)"
}

// ISODayOfWeek is CAST(EXTRACT(ISODOW FROM x) AS INTEGER), shared with
// DuckDB.
func ISODayOfWeek(x string) string {
	return "CAST(EXTRACT(ISODOW FROM " + x + ") AS INTEGER)"
}

// FoldsNames: unquoted names fold to lower case.
func (Dialect) FoldsNames() bool { return true }

// CatalogSQL reads information_schema.
func (Dialect) CatalogSQL() string { return dialect.InformationSchemaCatalog }

// GuardFunctions are the functions beyond the common ones that the guard
// allows on Postgres: read-only, with no effect outside the statement.
func (Dialect) GuardFunctions() string {
	return `
make_date make_time make_timestamp make_timestamptz make_interval justify_days justify_hours
justify_interval date_bin clock_timestamp statement_timestamp transaction_timestamp timeofday
isfinite timezone to_hex sha224 sha256 sha384 sha512 quote_ident quote_literal quote_nullable
regexp_matches regexp_match regexp_split_to_array regexp_split_to_table string_to_array
array_to_string array_length array_position array_positions array_remove array_replace
array_append array_prepend array_cat array_dims array_lower array_upper array_ndims
cardinality unnest generate_series generate_subscripts
json_extract_path json_extract_path_text jsonb_extract_path jsonb_extract_path_text
jsonb_array_length json_each_text jsonb_each jsonb_each_text json_array_elements
json_array_elements_text jsonb_array_elements jsonb_array_elements_text json_object_keys
jsonb_object_keys json_typeof jsonb_typeof json_build_object jsonb_build_object
json_build_array jsonb_build_array to_json to_jsonb row_to_json array_to_json
json_strip_nulls jsonb_strip_nulls jsonb_pretty jsonb_set jsonb_insert jsonb_concat
jsonb_path_query jsonb_path_query_array jsonb_path_query_first jsonb_path_exists jsonb_path_match
json_populate_record jsonb_populate_record json_to_record jsonb_to_record json_to_recordset
jsonb_to_recordset
to_tsvector to_tsquery plainto_tsquery phraseto_tsquery websearch_to_tsquery ts_rank
ts_rank_cd ts_headline setweight numnode querytree
pg_size_pretty pg_total_relation_size pg_relation_size pg_table_size pg_indexes_size
pg_database_size pg_column_size pg_get_viewdef pg_get_indexdef pg_get_constraintdef
pg_get_expr pg_get_userbyid pg_get_serial_sequence format_type obj_description col_description
shobj_description has_table_privilege has_column_privilege has_schema_privilege
has_database_privilege current_database current_schema current_schemas current_user
session_user user version pg_backend_pid pg_postmaster_start_time pg_is_in_recovery
to_regclass to_regtype pg_typeof gen_random_uuid current_setting
bool_and bool_or num_nulls num_nonnulls`
}
