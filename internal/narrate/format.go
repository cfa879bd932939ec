package narrate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// Number formats.
const (
	FormatNumber   = "number"
	FormatInteger  = "integer"
	FormatCurrency = "currency"
	FormatPercent  = "percent"
	FormatDate     = "date"
	// FormatCents is money held in its minor unit: shown as currency,
	// divided by 100 (semantic.FormatCents).
	FormatCents = semantic.FormatCents
)

// Number formats f by format: "currency" with two decimals after the
// currency symbol ("cents" the same, of f divided by 100), "percent" multiplied by 100 with one decimal and a %
// sign, "integer" rounded without decimals, anything else with two decimals
// from 1 up and four significant digits below 1, integral values without
// decimals. Every format groups thousands with commas.
func Number(f float64, format, currency string) string {
	if math.IsNaN(f) {
		return "NaN"
	}
	if math.IsInf(f, 0) {
		if f > 0 {
			return "Infinity"
		}
		return "-Infinity"
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	var s string
	switch format {
	case FormatCurrency:
		s = currency + group(Fixed(f, 2, 0))
	case FormatCents:
		s = currency + group(Fixed(f/100, 2, 0))
	case FormatPercent:
		s = group(Fixed(f, 1, 2)) + "%"
	case FormatInteger:
		s = group(Fixed(f, 0, 0))
	default:
		s = group(plainNumber(f))
	}
	if sign != "" && strings.Trim(s, "0.,%"+currency) == "" {
		sign = "" // no "-0.00"
	}
	return sign + s
}

// plainNumber formats a non-negative number with sensible precision.
func plainNumber(f float64) string {
	switch {
	case f == math.Trunc(f) && f < 1e15:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case f >= 1:
		return Fixed(f, 2, 0)
	}
	prec := 3 - int(math.Floor(math.Log10(f)))
	if prec > 12 {
		return strconv.FormatFloat(f, 'g', 4, 64)
	}
	s := strconv.FormatFloat(f, 'f', prec, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// group inserts thousands separators into a plain decimal number.
func group(s string) string {
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	if len(intPart) <= 3 || strings.ContainsAny(intPart, "e+") {
		return s
	}
	var b strings.Builder
	lead := len(intPart) % 3
	if lead > 0 {
		b.WriteString(intPart[:lead])
	}
	for i := lead; i < len(intPart); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(intPart[i : i+3])
	}
	return b.String() + frac
}

// Value formats one result cell for a column: numbers by the column's
// format, dates by its grain, NULL as "NULL" and text as it is.
func Value(v any, c ColumnInfo, currency string) string {
	if c.Format == FormatDate || c.Grain != "" {
		if s, ok := dateLabel(v, c.Grain); ok {
			return s
		}
	}
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		if neg, digits := strings.HasPrefix(x, "-"), strings.TrimPrefix(x, "-"); isDigits(digits) && (c.Format == FormatInteger || c.Format == FormatNumber) {
			if neg {
				return "-" + group(digits)
			}
			return group(digits)
		}
		if isNumericFormat(c.Format) {
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return Number(f, c.Format, currency)
			}
		}
		return x
	case []byte:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		if s, ok := dateLabel(x, c.Grain); ok {
			return s
		}
		return x.Format(time.RFC3339)
	}
	if f, ok := quarry.Float(v); ok {
		if f == math.Trunc(f) && f >= 1000 && f <= 9999 && yearName(c.Name) {
			return strconv.FormatFloat(f, 'f', 0, 64) // "2013", not "2,013"
		}
		if f == math.Trunc(f) && c.Role != RoleMetric && idName(c.Name) {
			return strconv.FormatFloat(f, 'f', 0, 64) // order 24234, not 24,234
		}
		format := c.Format
		if format == "" || format == FormatDate {
			format = FormatNumber
		}
		return Number(f, format, currency)
	}
	return fmt.Sprint(v)
}

func isNumericFormat(f string) bool {
	switch f {
	case FormatNumber, FormatInteger, FormatCurrency, FormatCents, FormatPercent:
		return true
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// dateLabel formats a date cell at a grain: year "2025", quarter "2025-Q1",
// month "2025-01", week and day "2025-01-06". Values that are not dates are
// not touched.
func dateLabel(v any, grain string) (string, bool) {
	var t time.Time
	switch x := v.(type) {
	case time.Time:
		t = x
	case string:
		p, ok := parseDate(x)
		if !ok {
			return "", false
		}
		t = p
	default:
		return "", false
	}
	switch grain {
	case "year":
		return t.Format("2006"), true
	case "quarter":
		return t.Format("2006") + "-Q" + strconv.Itoa((int(t.Month())+2)/3), true
	case "month":
		return t.Format("2006-01"), true
	case "week", "day", "":
		if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
			return t.Format("2006-01-02"), true
		}
		return t.Format("2006-01-02 15:04"), true
	}
	return t.Format("2006-01-02"), true
}

func parseDate(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", "2006-01-02 15:04:05", "2006-01-02T15:04:05Z07:00", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// looksLikeDate reports whether s is a date or a period label of the shapes
// "2025", "2025-01", "2025-Q1", "2025-W05" or a full date.
func looksLikeDate(s string) bool {
	if _, ok := parseDate(s); ok {
		return true
	}
	if len(s) < 4 || !isDigits(s[:4]) {
		return false
	}
	rest := s[4:]
	switch {
	case rest == "":
		return s >= "1900" && s <= "2199"
	case len(rest) == 3 && rest[0] == '-' && isDigits(rest[1:]):
		return true
	case len(rest) == 3 && (rest[:2] == "-Q" || rest[:2] == "-q") && rest[2] >= '1' && rest[2] <= '4':
		return true
	case len(rest) == 4 && (rest[:2] == "-W" || rest[:2] == "-w") && isDigits(rest[2:]):
		return true
	}
	return false
}

// Fixed writes the non-negative f times 10^shift with places decimals,
// rounded half away from zero on its decimal value (the shortest decimal
// that reads back as f), not on the binary float: 209829.205 is
// "209829.21" in every surface, never "209829.20".
func Fixed(f float64, places, shift int) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	for ; shift > 0; shift-- { // move the point right: percent
		if frac == "" {
			frac = "0"
		}
		whole, frac = whole+frac[:1], frac[1:]
	}
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	up := len(frac) > places && frac[places] >= '5'
	frac = (frac + strings.Repeat("0", places))[:places]
	digits := []byte(whole + frac)
	for i := len(digits) - 1; up && i >= 0; i-- {
		if digits[i] == '9' {
			digits[i] = '0'
			continue
		}
		digits[i]++
		up = false
	}
	out := string(digits)
	if up {
		out = "1" + out
	}
	if places == 0 {
		return out
	}
	return out[:len(out)-places] + "." + out[len(out)-places:]
}

// yearName reports whether a column's name says it holds years
// (published_year, yr, Year).
func yearName(name string) bool {
	ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == ' ' || r == '-' })
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	return last == "year" || last == "yr" || strings.HasSuffix(last, "year") && len(ws) == 1
}

// idName reports whether a column's name says it names rows rather than
// counting anything: id, order_id, invoice_no, order_number.
func idName(name string) bool {
	ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == ' ' || r == '-' })
	if len(ws) == 0 {
		return false
	}
	switch ws[len(ws)-1] {
	case "id", "no", "nr", "nbr", "num", "number", "key":
		return true
	}
	return false
}

// escapeMarkdown writes a value from the data so that Markdown reads it as
// the text it is: a product named "[ok](http://evil.example/login)" is no
// link in the answer, "<img …>" no tag, "**" no bold (found from outside:
// a product's name planted a link in the answer's sentence). Only what
// can start markup inline is escaped, and the colon of an address, which
// would make it a link: an underscore inside a word (count_patients) and
// an ampersand that starts no reference stay as they are.
func escapeMarkdown(s string) string {
	if !strings.ContainsAny(s, "\\`*_[]<>!&|~:") {
		return s
	}
	word := func(i int) bool {
		if i < 0 || i >= len(s) {
			return false
		}
		c := s[i]
		return c >= 0x80 || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		esc := false
		switch c {
		case '\\', '`', '*', '[', ']', '<', '>', '|', '~':
			esc = true
		case '_':
			esc = !word(i-1) || !word(i+1)
		case '!':
			esc = i+1 < len(s) && s[i+1] == '['
		case '&':
			esc = i+1 < len(s) && (s[i+1] == '#' || word(i+1))
		case ':':
			// An address in the data is shown, not made a link.
			esc = strings.HasPrefix(s[i:], "://")
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Unescape undoes Markdown's backslash escapes of punctuation, for text
// shown as it is rather than rendered (a terminal, a headline).
func Unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
