package knowledge

import "strings"

// sqlToken is an identifier or a dot read from SQL text; string literals,
// numbers and comments are skipped.
type sqlToken struct {
	text  string // identifier without quotes, or "."
	ident bool
}

// sqlTokens reads the identifiers and dots of s. It is lenient: it exists
// to find the names an expression or query refers to, not to parse SQL.
func sqlTokens(s string) []sqlToken {
	var out []sqlToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'':
			i = skipQuoted(s, i, '\'')
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return out
			}
			i += j + 4
		case c == '"' || c == '`' || c == '[':
			end := byte('"')
			switch c {
			case '`':
				end = '`'
			case '[':
				end = ']'
			}
			j := i + 1
			var b strings.Builder
			for j < len(s) {
				if s[j] == end {
					if end != ']' && j+1 < len(s) && s[j+1] == end {
						b.WriteByte(end)
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, sqlToken{text: b.String(), ident: true})
			i = j + 1
		case c >= '0' && c <= '9':
			for i < len(s) && (isIdentByte(s[i]) || s[i] == '.') {
				i++
			}
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			out = append(out, sqlToken{text: s[i:j], ident: true})
			i = j
		case c == '.':
			out = append(out, sqlToken{text: "."})
			i++
		default:
			i++
		}
	}
	return out
}

func skipQuoted(s string, i int, q byte) int {
	i++
	for i < len(s) {
		if s[i] == q {
			if i+1 < len(s) && s[i+1] == q {
				i += 2
				continue
			}
			return i + 1
		}
		i++
	}
	return i
}

func isIdentStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= 0x80
}

func isIdentByte(c byte) bool { return isIdentStart(c) || ('0' <= c && c <= '9') || c == '$' }

// colRef is a qualified reference "entity.column" found in an expression.
type colRef struct{ entity, column string }

// qualifiedRefs returns the entity.column references of a SQL expression.
// For three-part names (schema.table.column) it returns the last two parts.
func qualifiedRefs(expr string) []colRef {
	toks := sqlTokens(expr)
	var out []colRef
	for i := 0; i+2 < len(toks); i++ {
		if !toks[i].ident || toks[i+1].text != "." || toks[i+1].ident || !toks[i+2].ident {
			continue
		}
		// skip the schema part of schema.table.column
		if i+4 < len(toks) && toks[i+3].text == "." && !toks[i+3].ident && toks[i+4].ident {
			continue
		}
		out = append(out, colRef{toks[i].text, toks[i+2].text})
		i += 2
	}
	return out
}

// identifiers returns the lower-cased identifiers used in SQL text.
func identifiers(sql string) map[string]bool {
	out := map[string]bool{}
	for _, t := range sqlTokens(sql) {
		if t.ident {
			out[strings.ToLower(t.text)] = true
		}
	}
	return out
}
