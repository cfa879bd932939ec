// Package mysql is the SQL dialect of MySQL and MariaDB (dialect.Dialect).
package mysql

import (
	"strings"

	"github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/quarry"
)

// Dialect is MySQL's and MariaDB's.
type Dialect struct{}

var _ dialect.Dialect = Dialect{}

// Name is mysql.
func (Dialect) Name() quarry.Dialect { return quarry.DialectMySQL }

// QuoteIdent backquotes.
func (Dialect) QuoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// String doubles single quotes and backslashes: MySQL reads backslash
// escapes inside literals by default.
func (Dialect) String(s string) string {
	return dialect.SingleQuote(strings.ReplaceAll(s, `\`, `\\`))
}

// NullSafeEqual is <=>.
func (Dialect) NullSafeEqual(a, b string) string { return a + " <=> " + b }

// FullJoin: MySQL and MariaDB have no FULL OUTER JOIN.
func (Dialect) FullJoin() bool { return false }

// Divisor needs no cast: MySQL divides in decimals.
func (Dialect) Divisor(x string) string { return "NULLIF(" + x + ", 0)" }

// Grain uses DATE, DATE_FORMAT and MAKEDATE.
func (Dialect) Grain(g dialect.Grain, x string) (string, bool) {
	switch g {
	case dialect.Day:
		return "DATE(" + x + ")", true
	case dialect.Week:
		return "DATE_SUB(DATE(" + x + "), INTERVAL WEEKDAY(" + x + ") DAY)", true
	case dialect.Month:
		return "DATE_FORMAT(" + x + ", '%Y-%m-01')", true
	case dialect.Quarter:
		return "MAKEDATE(YEAR(" + x + "), 1) + INTERVAL (QUARTER(" + x + ") - 1) QUARTER", true
	case dialect.Year:
		return "DATE_FORMAT(" + x + ", '%Y-01-01')", true
	}
	return "", false
}

// FoldsNames: table names can be case-sensitive (lower_case_table_names).
func (Dialect) FoldsNames() bool { return false }

// CatalogSQL reads information_schema.
func (Dialect) CatalogSQL() string { return dialect.InformationSchemaCatalog }
