package semantic

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	sqldialect "github.com/quarrydata/quarry/internal/dialect"
	"github.com/quarrydata/quarry/internal/dialect/registry"
	"github.com/quarrydata/quarry/internal/quarry"
)

// dialect renders the parts of SQL that differ between engines: the
// engine's dialect.Dialect (from the registry), plus what the compiler
// builds on it.
type dialect struct {
	d sqldialect.Dialect
}

func newDialect(d quarry.Dialect) (dialect, error) {
	x, err := registry.For(d)
	if err != nil {
		return dialect{}, quarry.Errorf(quarry.KindUnsupported, "the semantic compiler does not know the %q dialect; use sqlite, postgres, mysql or duckdb", d)
	}
	return dialect{d: x}, nil
}

// ident quotes an identifier only when it needs it.
func (d dialect) ident(s string) string { return sqldialect.Ident(d.d, s) }

// str renders a string literal.
func (d dialect) str(s string) string { return d.d.String(s) }

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
func (d dialect) notDistinct(a, b string) string { return d.d.NullSafeEqual(a, b) }

// fullJoin reports whether the dialect has FULL OUTER JOIN.
func (d dialect) fullJoin() bool { return d.d.FullJoin() }

// sortTerm is x as a term of an asked-for order: descending if desc, its
// NULLs last where the engine can say so.
func (d dialect) sortTerm(x string, desc bool) string {
	if desc {
		x += " DESC"
	}
	return x + d.d.NullsLast()
}

// divisor wraps a denominator so that zero gives NULL and the division is
// done in floating point.
func (d dialect) divisor(x string) string { return d.d.Divisor(x) }

// grain renders the start of the period of grain g containing x, as a value
// that reads and sorts as 'YYYY-MM-DD'. Weeks start on Monday.
// The day of the week is its name, from the engine's ISO day number; the
// part of the week is "weekday" or "weekend" from the same number (NULL
// for a NULL date, as the day's name is).
func (d dialect) grain(g Grain, x string) (string, error) {
	switch g {
	case GrainDayOfWeek:
		var b strings.Builder
		b.WriteString("CASE " + d.d.DayOfWeek(x))
		for i, n := range DayNames {
			fmt.Fprintf(&b, " WHEN %d THEN %s", i+1, d.str(n))
		}
		b.WriteString(" END")
		return b.String(), nil
	case GrainPartOfWeek:
		day := d.d.DayOfWeek(x)
		return fmt.Sprintf("CASE WHEN %s >= 6 THEN %s WHEN %s >= 1 THEN %s END", day, d.str(Weekend), day, d.str(Weekday)), nil
	}
	if s, ok := d.d.Grain(sqldialect.Grain(g), x); ok {
		return s, nil
	}
	return "", quarry.Errorf(quarry.KindInput, "unknown time grain %q; use day, week, month, quarter, year, day_of_week or part_of_week", g)
}

// cycleOrder renders the place (1, 2, …) of a cyclic grain's value in x,
// to sort a grouping by it in the cycle's order (Monday first; weekday
// before weekend).
func (d dialect) cycleOrder(g Grain, x string) string {
	var b strings.Builder
	b.WriteString("CASE " + x)
	for i, n := range g.Values() {
		fmt.Fprintf(&b, " WHEN %s THEN %d", d.str(n), i+1)
	}
	b.WriteString(" END")
	return b.String()
}

// cycleIn renders the test that x's ISO day of the week is one of days
// (ascending, 1 to 7): "IN (6, 7)". A NULL date passes no test.
func (d dialect) cycleIn(x string, days []int) string {
	parts := make([]string, len(days))
	for i, n := range days {
		parts[i] = strconv.Itoa(n)
	}
	day := d.d.DayOfWeek(x)
	if len(days) == 1 {
		return day + " = " + parts[0]
	}
	return day + " IN (" + strings.Join(parts, ", ") + ")"
}

// asciiLower lower-cases the ASCII letters of s alone.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// likeText renders a case-insensitive LIKE test of x for s between
// before and after ("%" or ""): contains, starts with or ends with s.
// The value's own '%', '_' and '!' are escaped, so that they match only
// themselves.
func (d dialect) likeText(x, before, s, after string) string {
	if d.d.Name() != quarry.DialectSQLite {
		return d.likeOne(x, before, strings.ToLower(s), after)
	}
	// SQLite's LOWER and LIKE fold ASCII letters only: 'Östberg' stays
	// 'Östberg', which neither 'ö%' nor 'Ö%' alone meets in every case.
	// The value's other letters are tried in both cases.
	lo, up := asciiLower(strings.ToLower(s)), asciiLower(strings.ToUpper(s))
	if lo == up {
		return d.likeOne(x, before, lo, after)
	}
	return "(" + d.likeOne(x, before, lo, after) + " OR " + d.likeOne(x, before, up, after) + ")"
}

// likeOne renders LOWER(x) LIKE the value s (lower-cased as the engine
// lowers x) between before and after.
func (d dialect) likeOne(x, before, s, after string) string {
	esc := strings.ContainsAny(s, "%_!")
	if esc {
		s = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(s)
	}
	out := fmt.Sprintf("LOWER(%s) LIKE %s", x, d.str(before+s+after))
	if esc {
		out += " ESCAPE '!'"
	}
	return out
}
