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

var (
	dateRE = lazyRE(`^\d{4}-\d{2}-\d{2}$`)
	tsRE   = lazyRE(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?| ?UTC)?$`)
	intRE  = lazyRE(`^[+-]?\d+$`)
	decRE  = lazyRE(`^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$`)
)

// kindOf classifies one non-null text cell.
func kindOf(s string) quarry.Type {
	switch {
	case intRE().MatchString(s):
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return quarry.TypeInt
		}
		return quarry.TypeBigInt
	case decRE().MatchString(s):
		if sigDigits(s) > maxExactDigits {
			return quarry.TypeDecimal
		}
		return quarry.TypeFloat
	case s == "true" || s == "false" || s == "t" || s == "f" || s == "TRUE" || s == "FALSE" || s == "True" || s == "False":
		return quarry.TypeBool
	case dateRE().MatchString(s):
		if _, err := time.Parse("2006-01-02", s); err == nil {
			return quarry.TypeDate
		}
	case tsRE().MatchString(s):
		if _, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return quarry.TypeTimestamp
		}
	}
	return quarry.TypeText
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
