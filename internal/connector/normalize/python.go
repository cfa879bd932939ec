package normalize

import (
	"encoding/json"
	"strings"
)

// pyToJSON rewrites a Python literal as JSON: what SQL MCP servers written
// in Python return when they send str(rows), e.g.
// [{'id': 1, 'name': 'Ada', 'note': None}]. Single- and double-quoted
// strings become JSON strings; None, True and False become null, true and
// false; Decimal('1.50') becomes the string "1.50". It reports false for
// anything it does not understand (such as datetime objects or tuples).
func pyToJSON(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			str, n, ok := pyString(s[i:])
			if !ok {
				return "", false
			}
			q, _ := json.Marshal(str)
			b.Write(q)
			i += n
		case c == '(' || c == ')':
			return "", false
		case isIdentStart(c):
			j := i
			for j < len(s) && (isIdentStart(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			switch word := s[i:j]; word {
			case "None":
				b.WriteString("null")
			case "True":
				b.WriteString("true")
			case "False":
				b.WriteString("false")
			case "Decimal", "decimal.Decimal":
				// Decimal('1.50') → "1.50"
				if j+1 >= len(s) || s[j] != '(' {
					return "", false
				}
				str, n, ok := pyString(s[j+1:])
				if !ok || j+1+n >= len(s) || s[j+1+n] != ')' {
					return "", false
				}
				q, _ := json.Marshal(str)
				b.Write(q)
				j += n + 2
			case "nan", "inf", "e", "E":
				b.WriteString(word)
			default:
				return "", false
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// pyString reads a quoted Python string at the start of s and returns its
// value and length.
func pyString(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(s[i])
			default:
				b.WriteByte('\\')
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}
