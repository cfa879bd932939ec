package quarry

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the JSON encoding of one result cell to b, byte for
// byte as encoding/json's Marshal writes it, without reflection for the
// values results carry most (nil, bool, int64, float64 and strings that
// need no escaping); any other value goes through json.Marshal. Writing a
// large result cell by cell this way is several times faster than
// marshalling its rows.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case float64:
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return AppendJSONFloat(b, x), nil
		}
	case string:
		if plainJSON(x) {
			b = append(b, '"')
			b = append(b, x...)
			return append(b, '"'), nil
		}
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, enc...), nil
}

// AppendJSONFloat appends a finite float64 as encoding/json writes it:
// the shortest decimal that reads back the same, in exponent form below
// 1e-6 and from 1e21, with a one-digit negative exponent unpadded.
func AppendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// JSONStringLen is the length of s encoded as a JSON string by
// encoding/json, quotes included.
func JSONStringLen(s string) int {
	if plainJSON(s) {
		return len(s) + 2
	}
	enc, _ := json.Marshal(s)
	return len(enc)
}

// plainJSON reports whether encoding/json writes s as it is between
// quotes: printable ASCII with nothing it escapes (quote, backslash, and
// the HTML characters <, > and &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
