package normalize

import (
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
)

// nullSpellings are the ways clients print a NULL cell.
var nullSpellings = map[string]bool{"": true, "NULL": true, "null": true, "Null": true, `\N`: true, "<null>": true, "(null)": true, "<NULL>": true}

// maxExactDigits is how many significant digits a float64 always keeps.
const maxExactDigits = 15

// kindOf classifies one non-null text cell. It runs on every text cell of
// a result a server returns, so its patterns are matched by hand (see
// isInt, isDec, isDate, isTimestamp), not by regular expressions.
func kindOf(s string) quarry.Type {
	switch {
	case isInt(s):
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return quarry.TypeInt
		}
		return quarry.TypeBigInt
	case isDec(s):
		if sigDigits(s) > maxExactDigits {
			return quarry.TypeDecimal
		}
		return quarry.TypeFloat
	case s == "true" || s == "false" || s == "t" || s == "f" || s == "TRUE" || s == "FALSE" || s == "True" || s == "False":
		return quarry.TypeBool
	case isDate(s):
		if _, err := time.Parse("2006-01-02", s); err == nil {
			return quarry.TypeDate
		}
	case isTimestamp(s):
		if _, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return quarry.TypeTimestamp
		}
	}
	return quarry.TypeText
}

// digits counts the ASCII digits s begins with.
func digits(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// unsigned drops one leading sign.
func unsigned(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

// isInt matches ^[+-]?\d+$.
func isInt(s string) bool {
	s = unsigned(s)
	return s != "" && digits(s) == len(s)
}

// isDec matches ^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$.
func isDec(s string) bool {
	s = unsigned(s)
	n := digits(s)
	s = s[n:]
	if s != "" && s[0] == '.' {
		m := digits(s[1:])
		if n == 0 && m == 0 {
			return false
		}
		s = s[1+m:]
	} else if n == 0 {
		return false
	}
	if s == "" {
		return true
	}
	if s[0] != 'e' && s[0] != 'E' {
		return false
	}
	return isInt(s[1:])
}

// isDate matches ^\d{4}-\d{2}-\d{2}$.
func isDate(s string) bool {
	return len(s) == 10 && datePrefix(s)
}

// datePrefix reports whether s begins with \d{4}-\d{2}-\d{2}.
func datePrefix(s string) bool {
	return len(s) >= 10 && digits(s[:4]) == 4 && s[4] == '-' && digits(s[5:7]) == 2 && s[7] == '-' && digits(s[8:10]) == 2
}

// isTimestamp matches
// ^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?| ?UTC)?$.
func isTimestamp(s string) bool {
	if len(s) < 16 || !datePrefix(s) || (s[10] != 'T' && s[10] != ' ') || digits(s[11:13]) != 2 || s[13] != ':' || digits(s[14:16]) != 2 {
		return false
	}
	s = s[16:]
	if len(s) >= 3 && s[0] == ':' && digits(s[1:3]) == 2 {
		s = s[3:]
		if len(s) >= 2 && s[0] == '.' {
			if n := digits(s[1:]); n >= 1 && n <= 9 {
				s = s[1+n:]
			}
		}
	}
	switch {
	case s == "" || s == "Z" || s == "UTC" || s == " UTC":
		return true
	case s[0] == '+' || s[0] == '-':
		s = s[1:]
		if len(s) < 2 || digits(s[:2]) != 2 {
			return false
		}
		s = s[2:]
		if s != "" && s[0] == ':' {
			s = s[1:]
			return len(s) == 2 && digits(s) == 2
		}
		return s == "" || len(s) == 2 && digits(s) == 2
	}
	return false
}

// sigDigits counts the significant digits of a decimal literal.
func sigDigits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(s, "+-")
	s = strings.Replace(s, ".", "", 1)
	s = strings.TrimLeft(s, "0")
	return len(s)
}

// merge combines the type so far with the next cell's; "" is no type yet.
func merge(typ, t quarry.Type) quarry.Type {
	if typ == "" || typ == t {
		return t
	}
	if typ.IsNumeric() && t.IsNumeric() {
		rank := map[quarry.Type]int{quarry.TypeInt: 1, quarry.TypeBigInt: 2, quarry.TypeFloat: 3, quarry.TypeDecimal: 4}
		hi := typ
		if rank[t] > rank[hi] {
			hi = t
		}
		if hi == quarry.TypeFloat && (typ == quarry.TypeBigInt || t == quarry.TypeBigInt) {
			return quarry.TypeDecimal // a float64 would lose the big integers
		}
		return hi
	}
	if typ.IsTemporal() && t.IsTemporal() {
		return quarry.TypeTimestamp
	}
	return quarry.TypeText
}

// cellValue converts a non-null text cell of a column of type typ.
func cellValue(s string, typ quarry.Type) any {
	switch typ {
	case quarry.TypeInt:
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	case quarry.TypeFloat:
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case quarry.TypeBool:
		return s == "true" || s == "t" || s == "TRUE" || s == "True"
	case quarry.TypeBigInt, quarry.TypeDecimal:
		return strings.TrimPrefix(s, "+")
	}
	return s
}
