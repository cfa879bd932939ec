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

// AntiJoinExists: see dialect.Dialect.
func (Dialect) AntiJoinExists() bool { return false }

// NullsLast: MySQL and MariaDB have no NULLS LAST; they sort NULLs last in descending order, first in ascending.
func (Dialect) NullsLast() string { return "" }

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

// DayOfWeek is WEEKDAY (0 for Monday) plus one.
func (Dialect) DayOfWeek(x string) string { return "(WEEKDAY(" + x + ") + 1)" }

// DaysBetween is TIMESTAMPDIFF in seconds, in days.
// AsText renders x as text.
func (Dialect) AsText(x string) string { return x }

func (Dialect) DaysBetween(from, to string) string {
	return "(TIMESTAMPDIFF(SECOND, " + from + ", " + to + ") / 86400.0)"
}

// FoldsNames: table names can be case-sensitive (lower_case_table_names).
func (Dialect) FoldsNames() bool { return false }

// CatalogSQL reads information_schema.
func (Dialect) CatalogSQL() string { return dialect.InformationSchemaCatalog }

// GuardFunctions are the functions beyond the common ones that the guard
// allows on MySQL and MariaDB: read-only, with no effect outside the statement.
func (Dialect) GuardFunctions() string {
	return `
date_format str_to_date curdate curtime sysdate year month day dayofweek dayofmonth dayofyear
week weekday weekofyear quarter hour minute second microsecond last_day unix_timestamp
from_unixtime makedate maketime period_add period_diff dayname monthname yearweek to_days
from_days time_format time_to_sec sec_to_time utc_date utc_time utc_timestamp convert_tz
addtime subtime timediff adddate subdate timestampdiff timestampadd get_format extract
database schema version current_user user session_user system_user connection_id found_rows
truncate insert lcase ucase mid field find_in_set elt strcmp bin oct rand crc32 sha1 sha2
to_base64 from_base64 inet_aton inet_ntoa is_ipv4 is_ipv6 uuid bin_to_uuid uuid_to_bin
charset collation coercibility isnull substring_index conv bit_count
json_unquote json_keys json_contains json_contains_path json_search json_length json_depth
json_set json_insert json_replace json_remove json_merge_patch json_merge_preserve
json_pretty json_overlaps json_arrayagg json_objectagg member`
}
