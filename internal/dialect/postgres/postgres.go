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

// FullJoin: PostgreSQL has it.
func (Dialect) FullJoin() bool { return true }

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

// FoldsNames: unquoted names fold to lower case.
func (Dialect) FoldsNames() bool { return true }

// CatalogSQL reads information_schema.
func (Dialect) CatalogSQL() string { return dialect.InformationSchemaCatalog }
