package format

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

func strconvItoa(n int64) string { return strconv.FormatInt(n, 10) }

// appendFloat writes f in plain decimal notation in normal ranges and with
// an exponent only for very small or very large magnitudes.
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

const hexDigits = "0123456789abcdef"

// appendText writes v as text; null is what NULL becomes. Strings are
// written as they are: each format escapes them itself.
func appendText(b []byte, v any, null string) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, null...)
	case string:
		return append(b, x...)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case float64:
		return appendFloat(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case []byte:
		b = append(b, '\\', 'x')
		for _, c := range x {
			b = append(b, hexDigits[c>>4], hexDigits[c&15])
		}
		return b
	case time.Time:
		return x.AppendFormat(b, time.RFC3339Nano)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case float32:
		return appendFloat(b, float64(x))
	case json.RawMessage:
		return append(b, x...)
	case []any, map[string]any:
		// Arrays and structs as JSON: [1,2,null], not Go's [1 2 <nil>].
		if j, err := json.Marshal(x); err == nil {
			return append(b, j...)
		}
	}
	return fmt.Append(b, v)
}

// appendJSON writes v as a JSON value.
func appendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendJSONString(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b = append(b, '"')
			return append(appendFloat(b, x), '"')
		}
		return appendFloat(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case []byte:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, x)
		return append(b, '"')
	case time.Time:
		b = append(b, '"')
		b = x.AppendFormat(b, time.RFC3339Nano)
		return append(b, '"')
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case float32:
		return appendJSON(b, float64(x))
	case json.RawMessage:
		if json.Valid(x) {
			return append(b, x...)
		}
		return appendJSONString(b, string(x))
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return appendJSONString(b, fmt.Sprint(v))
	}
	return append(b, enc...)
}

// appendJSONString writes s as a JSON string. Invalid UTF-8 becomes
// U+FFFD; control characters, U+2028 and U+2029 are escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
