package semantic

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

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

// dialect renders the parts of SQL that differ between engines.
type dialect struct {
	name quarry.Dialect
}

func newDialect(d quarry.Dialect) (dialect, error) {
	switch d {
	case quarry.DialectSQLite, quarry.DialectPostgres, quarry.DialectMySQL, quarry.DialectDuckDB:
		return dialect{name: d}, nil
	case quarry.DialectGeneric, "":
		// The generic dialect reads like SQLite, which is also the demo's.
		return dialect{name: quarry.DialectSQLite}, nil
	}
	return dialect{}, quarry.Errorf(quarry.KindUnsupported, "the semantic compiler does not know the %q dialect; use sqlite, postgres, mysql or duckdb", d)
}

// ident quotes an identifier only when it needs it.
func (d dialect) ident(s string) string {
	plain := s != "" && isIdentStart(s[0]) && !isReserved(strings.ToLower(s))
	for i := 0; plain && i < len(s); i++ {
		c := s[i]
		plain = c == '_' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
	}
	if plain {
		return s
	}
	if d.name == quarry.DialectMySQL {
		return "`" + strings.ReplaceAll(s, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// str renders a string literal.
func (d dialect) str(s string) string {
	s = strings.ReplaceAll(s, "'", "''")
	if d.name == quarry.DialectMySQL {
		// MySQL reads backslash escapes inside literals by default.
		s = strings.ReplaceAll(s, `\`, `\\`)
	}
	return "'" + s + "'"
}

// literal renders a filter value as a literal: strings quoted, numbers as
// numbers.
func (d dialect) literal(v any) (string, error) {
	switch x := v.(type) {
	case string:
		if strings.IndexByte(x, 0) >= 0 {
			return "", quarry.Errorf(quarry.KindInput, "a filter value contains a NUL byte; remove it")
		}
		return d.str(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int32:
		return strconv.FormatInt(int64(x), 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", quarry.Errorf(quarry.KindInput, "a filter value is not a finite number")
		}
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case bool:
		if x {
			return "1", nil
		}
		return "0", nil
	}
	return "", quarry.Errorf(quarry.KindInput, "a filter value of type %T cannot be used; use a string or a number", v)
}

// notDistinct renders a NULL-safe equality, used to join result sets on
// dimension values that may be NULL.
func (d dialect) notDistinct(a, b string) string {
	switch d.name {
	case quarry.DialectSQLite:
		return a + " IS " + b
	case quarry.DialectMySQL:
		return a + " <=> " + b
	}
	return a + " IS NOT DISTINCT FROM " + b
}

// fullJoin reports whether the dialect has FULL OUTER JOIN.
func (d dialect) fullJoin() bool { return d.name != quarry.DialectMySQL }

// divisor wraps a denominator so that zero gives NULL and the division is
// done in floating point.
func (d dialect) divisor(x string) string {
	switch d.name {
	case quarry.DialectSQLite:
		return "NULLIF(CAST(" + x + " AS REAL), 0)"
	case quarry.DialectPostgres:
		return "NULLIF(CAST(" + x + " AS DOUBLE PRECISION), 0)"
	}
	// MySQL divides in decimals and DuckDB in doubles already.
	return "NULLIF(" + x + ", 0)"
}

// grain renders the start of the period of grain g containing x, as a value
// that reads and sorts as 'YYYY-MM-DD'. Weeks start on Monday.
func (d dialect) grain(g Grain, x string) (string, error) {
	switch d.name {
	case quarry.DialectSQLite:
		switch g {
		case GrainDay:
			return "date(" + x + ")", nil
		case GrainWeek:
			// 'weekday 0' moves forward to the next Sunday (or stays on one);
			// six days back is that week's Monday.
			return "date(" + x + ", 'weekday 0', '-6 days')", nil
		case GrainMonth:
			return "strftime('%Y-%m-01', " + x + ")", nil
		case GrainQuarter:
			return "printf('%s-%02d-01', strftime('%Y', " + x + "), (CAST(strftime('%m', " + x + ") AS INTEGER) - 1) / 3 * 3 + 1)", nil
		case GrainYear:
			return "strftime('%Y-01-01', " + x + ")", nil
		}
	case quarry.DialectMySQL:
		switch g {
		case GrainDay:
			return "DATE(" + x + ")", nil
		case GrainWeek:
			return "DATE_SUB(DATE(" + x + "), INTERVAL WEEKDAY(" + x + ") DAY)", nil
		case GrainMonth:
			return "DATE_FORMAT(" + x + ", '%Y-%m-01')", nil
		case GrainQuarter:
			return "MAKEDATE(YEAR(" + x + "), 1) + INTERVAL (QUARTER(" + x + ") - 1) QUARTER", nil
		case GrainYear:
			return "DATE_FORMAT(" + x + ", '%Y-01-01')", nil
		}
	default: // postgres, duckdb: date_trunc weeks start on Monday
		switch g {
		case GrainDay, GrainWeek, GrainMonth, GrainQuarter, GrainYear:
			return "CAST(date_trunc('" + string(g) + "', " + x + ") AS DATE)", nil
		}
	}
	return "", quarry.Errorf(quarry.KindInput, "unknown time grain %q; use day, week, month, quarter or year", g)
}

// likeContains renders a case-insensitive "contains" test of x for s.
func (d dialect) likeContains(x, s string) string {
	s = strings.ToLower(s)
	esc := strings.ContainsAny(s, "%_!")
	if esc {
		s = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(s)
	}
	out := fmt.Sprintf("LOWER(%s) LIKE %s", x, d.str("%"+s+"%"))
	if esc {
		out += " ESCAPE '!'"
	}
	return out
}
