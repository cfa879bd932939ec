package semantic

import "strings"

// colRef is an "entity.column" reference inside a SQL expression.
type colRef struct {
	Entity, Column string
}

func (r colRef) String() string { return r.Entity + "." + r.Column }

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || '0' <= c && c <= '9'
}

// scanIdent returns the end of the identifier starting at i.
func scanIdent(s string, i int) int {
	for i < len(s) && isIdentPart(s[i]) {
		i++
	}
	return i
}

// rewriteRefs walks a SQL expression written over entity.column references
// and calls fn for each one, replacing it with fn's result. String literals
// ('…' with doubled quotes) and numbers are copied untouched; an
// identifier.identifier pair is a reference when isEntity accepts its first
// part. fn may be nil to only collect references.
func rewriteRefs(expr string, isEntity func(string) bool, fn func(colRef) string) (string, []colRef) {
	var b strings.Builder
	var refs []colRef
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '\'':
			j := i + 1
			for j < len(expr) {
				if expr[j] == '\'' {
					if j+1 < len(expr) && expr[j+1] == '\'' {
						j += 2
						continue
					}
					j++
					break
				}
				j++
			}
			b.WriteString(expr[i:j])
			i = j
		case '0' <= c && c <= '9':
			j := i
			for j < len(expr) && (isIdentPart(expr[j]) || expr[j] == '.') {
				j++
			}
			b.WriteString(expr[i:j])
			i = j
		case isIdentStart(c):
			j := scanIdent(expr, i)
			if j+1 < len(expr) && expr[j] == '.' && isIdentStart(expr[j+1]) && isEntity(expr[i:j]) {
				k := scanIdent(expr, j+1)
				r := colRef{Entity: expr[i:j], Column: expr[j+1 : k]}
				refs = append(refs, r)
				if fn != nil {
					b.WriteString(fn(r))
				} else {
					b.WriteString(expr[i:k])
				}
				i = k
				continue
			}
			b.WriteString(expr[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), refs
}

// derivedRefs returns the metric names written {name} in a derived
// expression, in order.
func derivedRefs(expr string) []string {
	var names []string
	for i := 0; i < len(expr); i++ {
		if expr[i] != '{' {
			continue
		}
		j := strings.IndexByte(expr[i:], '}')
		if j < 0 {
			break
		}
		names = append(names, strings.TrimSpace(expr[i+1:i+j]))
		i += j
	}
	return names
}

// renderDerived renders a derived expression: each {name} becomes ref(name),
// and every divisor (the operand right after '/': a {name}, a number or a
// parenthesised group) is wrapped by guard so that a zero denominator
// gives NULL instead of an error.
func renderDerived(expr string, ref func(string) string, guard func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '{':
			j := strings.IndexByte(expr[i:], '}')
			if j < 0 {
				b.WriteString(expr[i:])
				return b.String()
			}
			b.WriteString(ref(strings.TrimSpace(expr[i+1 : i+j])))
			i += j + 1
		case c == '/':
			b.WriteByte('/')
			i++
			for i < len(expr) && expr[i] == ' ' {
				b.WriteByte(' ')
				i++
			}
			end := operandEnd(expr, i)
			if end > i {
				b.WriteString(guard(renderDerived(expr[i:end], ref, guard)))
				i = end
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// operandEnd returns the end of the operand starting at i: a {name}, a
// parenthesised group, or a run of identifier characters and dots.
func operandEnd(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '{':
		if j := strings.IndexByte(s[i:], '}'); j >= 0 {
			return i + j + 1
		}
		return len(s)
	case '(':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	j := i
	for j < len(s) && (isIdentPart(s[j]) || s[j] == '.') {
		j++
	}
	return j
}
