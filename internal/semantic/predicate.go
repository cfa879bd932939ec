package semantic

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// predicate reads the plain forms of a metric filter: entity.column, an
// operator (=, <>, <, <=, >, >=, IN), and literals.
var predicate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)^\s*([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)\s*(=|<=|>=|<|>|\bin\b)\s*(.+?)\s*$`)
})

var nullPredicate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)^\s*([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)\s+is\s+(not\s+)?null\s*$`)
})

// ParsePredicate reads a metric filter written in its plain forms —
// entity.column, an operator (=, <, <=, >, >=, IN, IS [NOT] NULL) and
// literals — as a Filter on that column; ok is false for anything else.
func ParsePredicate(expr string) (f Filter, ok bool) {
	key, op, vals, ok := parsePredicate(expr)
	return Filter{Field: key, Op: op, Values: vals}, ok
}

func parsePredicate(expr string) (key string, op Op, vals []any, ok bool) {
	if m := nullPredicate().FindStringSubmatch(expr); m != nil {
		if m[2] != "" {
			return strings.ToLower(m[1]), OpNotNull, nil, true
		}
		return strings.ToLower(m[1]), OpNull, nil, true
	}
	m := predicate().FindStringSubmatch(expr)
	if m == nil {
		return "", "", nil, false
	}
	key = strings.ToLower(m[1])
	rest := m[3]
	switch strings.ToLower(m[2]) {
	case "=":
		op = OpEq
	case "<":
		op = OpLt
	case "<=":
		op = OpLe
	case ">":
		op = OpGt
	case ">=":
		op = OpGe
	case "in":
		op = OpIn
		if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
			return "", "", nil, false
		}
		rest = rest[1 : len(rest)-1]
	}
	for _, part := range splitLiterals(rest) {
		v, ok := literal(part)
		if !ok {
			return "", "", nil, false
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 || op != OpIn && len(vals) != 1 {
		return "", "", nil, false
	}
	return key, op, vals, true
}

// splitLiterals splits a comma-separated list of literals, keeping commas
// inside quotes.
func splitLiterals(s string) []string {
	var out []string
	var b strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'':
			quoted = !quoted
			b.WriteByte(ch)
		case ch == ',' && !quoted:
			out = append(out, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(ch)
		}
	}
	return append(out, strings.TrimSpace(b.String()))
}

// literal reads 'text' (quotes doubled inside) or a number.
func literal(s string) (any, bool) {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		inner := s[1 : len(s)-1]
		if strings.Count(strings.ReplaceAll(inner, "''", ""), "'") > 0 {
			return nil, false
		}
		return strings.ReplaceAll(inner, "''", "'"), true
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f, true
	}
	return nil, false
}

// countOrSumRE matches the expression of a count or a sum.
var countOrSumRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(count|sum)\s*\(`)
})

// Additive reports whether the metric is a count or a sum of its rows: a
// group or a period with none of them counts 0, where an average, a
// minimum or a formula over other metrics has no value.
func (m *Metric) Additive() bool {
	return m.Derived == "" && countOrSumRE().MatchString(m.Expr)
}
