package semantic

import (
	"strings"
)

// Intensive reports whether the metric's value does not grow with the
// number of days it covers: an average (AVG), a ratio of aggregates
// ("SUM(a) / COUNT(b)", "{revenue} / {completed_orders}"), or a percent
// whose formula quarry cannot read. Sums and counts (COUNT(DISTINCT …)
// too), their sums and differences ("{revenue} - {refunds}"), a sum
// divided by a constant, MIN and MAX are not: two periods of different
// lengths give figures that are not like for like. Read from the
// definition alone, never from the name.
func (m *Model) Intensive(name string) bool {
	mt := m.Metric(name)
	if mt == nil {
		return false
	}
	d, ok := m.degree(mt, map[string]bool{})
	if ok {
		return d == 0
	}
	return strings.EqualFold(mt.Format, "percent") && !mt.Additive()
}

// degree is how the metric grows with the rows it covers: 1 for a sum or
// a count, 0 for an average or a ratio of two of them; ok is false where
// the formula is not one quarry reads (a MIN, a CASE outside an
// aggregate, a column outside one, a cycle of derived metrics).
func (m *Model) degree(mt *Metric, seen map[string]bool) (int, bool) {
	if seen[mt.Name] {
		return 0, false
	}
	seen[mt.Name] = true
	defer delete(seen, mt.Name)
	expr := mt.Expr
	if mt.Derived != "" {
		expr = mt.Derived
	}
	e := degreeReader{s: expr, ref: func(name string) (int, bool) {
		o := m.Metric(name)
		if o == nil {
			return 0, false
		}
		return m.degree(o, seen)
	}}
	d, ok := e.sum()
	e.space()
	if !ok || e.i != len(e.s) {
		return 0, false
	}
	return d.n, d.agg
}

// deg is an expression's degree n; agg says whether it holds an
// aggregate at all (a constant has degree 0 and none).
type deg struct {
	n   int
	agg bool
}

type degreeReader struct {
	s   string
	i   int
	ref func(string) (int, bool)
}

func (r *degreeReader) space() {
	for r.i < len(r.s) && strings.ContainsRune(" \t\r\n", rune(r.s[r.i])) {
		r.i++
	}
}

// sum: terms joined by + and -, each of the same degree (a constant may
// join a ratio: "1 - {refund_rate}").
func (r *degreeReader) sum() (deg, bool) {
	d, ok := r.product()
	if !ok {
		return d, false
	}
	for {
		r.space()
		if r.i >= len(r.s) || r.s[r.i] != '+' && r.s[r.i] != '-' {
			return d, true
		}
		r.i++
		o, ok := r.product()
		if !ok {
			return d, false
		}
		switch {
		case !o.agg && d.n == 0:
		case !d.agg && o.n == 0:
			d = o
		case o.n != d.n:
			return d, false
		}
		d.agg = d.agg || o.agg
	}
}

// product: factors joined by * and /, whose degrees add and subtract.
func (r *degreeReader) product() (deg, bool) {
	d, ok := r.factor()
	if !ok {
		return d, false
	}
	for {
		r.space()
		if r.i >= len(r.s) || r.s[r.i] != '*' && r.s[r.i] != '/' {
			return d, true
		}
		op := r.s[r.i]
		r.i++
		o, ok := r.factor()
		if !ok {
			return d, false
		}
		if op == '*' {
			d.n += o.n
		} else {
			d.n -= o.n
		}
		d.agg = d.agg || o.agg
	}
}

func (r *degreeReader) factor() (deg, bool) {
	r.space()
	if r.i >= len(r.s) {
		return deg{}, false
	}
	c := r.s[r.i]
	switch {
	case c == '-' || c == '+':
		r.i++
		return r.factor()
	case c == '(':
		r.i++
		d, ok := r.sum()
		r.space()
		if !ok || r.i >= len(r.s) || r.s[r.i] != ')' {
			return d, false
		}
		r.i++
		return d, true
	case c == '{':
		end := strings.IndexByte(r.s[r.i:], '}')
		if end < 0 {
			return deg{}, false
		}
		name := strings.TrimSpace(r.s[r.i+1 : r.i+end])
		r.i += end + 1
		n, ok := r.ref(name)
		return deg{n: n, agg: true}, ok
	case c >= '0' && c <= '9' || c == '.':
		for r.i < len(r.s) && (r.s[r.i] >= '0' && r.s[r.i] <= '9' || r.s[r.i] == '.') {
			r.i++
		}
		return deg{}, true
	case isIdent(c):
		start := r.i
		for r.i < len(r.s) && (isIdent(r.s[r.i]) || r.s[r.i] >= '0' && r.s[r.i] <= '9') {
			r.i++
		}
		fn := strings.ToUpper(r.s[start:r.i])
		r.space()
		if r.i >= len(r.s) || r.s[r.i] != '(' {
			return deg{}, false // a column outside an aggregate
		}
		open := r.i
		if !r.skipArgs() {
			return deg{}, false
		}
		switch fn {
		case "SUM", "COUNT":
			return deg{n: 1, agg: true}, true
		case "AVG":
			return deg{n: 0, agg: true}, true
		case "COALESCE", "NULLIF", "ROUND", "CAST", "ABS":
			// Their first argument's degree.
			inner := degreeReader{s: r.s[open+1 : r.i-1], ref: r.ref}
			d, ok := inner.sum()
			if !ok {
				return d, false
			}
			return d, true
		}
		return deg{}, false
	}
	return deg{}, false
}

// skipArgs passes over a parenthesised argument list at r.i, quoted text
// included.
func (r *degreeReader) skipArgs() bool {
	depth := 0
	for ; r.i < len(r.s); r.i++ {
		switch r.s[r.i] {
		case '\'', '"':
			q := r.s[r.i]
			r.i++
			for r.i < len(r.s) && r.s[r.i] != q {
				r.i++
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				r.i++
				return true
			}
		}
	}
	return false
}

func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
