package verify

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// How coverage rules a name out quickly: whether the question could
// name it, without building the name's forms.

// mayName reports whether the question could name n as groupings reads
// it (n, its plural, its -ies plural): whether the question holds n
// without a last y, lower-cased and with underscores as spaces. It only
// rules names out.
func (c *cover) mayName(n string) bool { return c.mayNameOf(n, "", "") }

// mayNameOf is mayName of a+sep+b, without building it: on a schema of
// ten thousand tables it is asked of every column.
func (c *cover) mayNameOf(a, sep, b string) bool {
	if !isASCII(a) || !isASCII(sep) || !isASCII(b) {
		p := strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(a+sep+b, "_", " "))), " ")
		return p != "" && strings.Contains(c.text, strings.TrimSuffix(p, "y"))
	}
	// The same without allocating, for the ASCII names of most schemas:
	// lower case, underscores and runs of spaces as one space, trimmed.
	buf, space := c.scratch[:0], false
	buf = normInto(buf, a, &space)
	buf = normInto(buf, sep, &space)
	buf = normInto(buf, b, &space)
	c.scratch = buf
	return c.holds(buf)
}

// maySplitName is mayName of splitName(n)'s words joined by spaces
// ("OrderDate": "order date"), without building them.
func (c *cover) maySplitName(n string) bool {
	if !isASCII(n) {
		return c.mayName(strings.Join(splitName(n), " "))
	}
	return c.holds(c.splitInto(n))
}

// maySingular rules out what mayName would of singularOf of n's split
// words: singularOf drops at most three letters ("companies": company,
// and mayName its y), so the question must hold all but the last three.
func (c *cover) maySingular(n string) bool {
	if !isASCII(n) {
		return true
	}
	b := c.splitInto(n)
	if len(b) <= 3 {
		return true
	}
	if c.textb == nil {
		c.textb = []byte(c.text)
	}
	return bytes.Contains(c.textb, b[:len(b)-3])
}

// splitInto is splitName(n)'s words of an ASCII name, lower case, one
// space between them, normalized as mayName reads names, in c.scratch.
func (c *cover) splitInto(n string) []byte {
	w := c.split[:0]
	word, prevLower := false, false
	for i := 0; i < len(n); i++ {
		ch := n[i]
		switch {
		case ch == '_' || ch == '-' || ch == ' ' || ch == '.':
			word, prevLower = false, false
			continue
		case ch >= 'A' && ch <= 'Z' && prevLower:
			word, prevLower = false, false
		default:
			prevLower = ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9'
		}
		if !word && len(w) > 0 {
			w = append(w, ' ')
		}
		word = true
		if ch >= 'A' && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		w = append(w, ch)
	}
	c.split = w
	buf, space := c.scratch[:0], false
	buf = normInto(buf, w, &space)
	c.scratch = buf
	return buf
}

// normInto appends s to dst as mayName reads names: lower case,
// underscores and runs of white space as one space, none leading; space
// carries a pending space from one part of a name to the next.
func normInto[S ~string | ~[]byte](dst []byte, s S, space *bool) []byte {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '_' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f':
			*space = len(dst) > 0
			continue
		case ch >= 'A' && ch <= 'Z':
			ch += 'a' - 'A'
		}
		if *space {
			dst = append(dst, ' ')
			*space = false
		}
		dst = append(dst, ch)
	}
	return dst
}

// holds reports whether the question holds the normalized name b without
// a last y.
func (c *cover) holds(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[len(b)-1] == 'y' {
		b = b[:len(b)-1]
	}
	if c.textb == nil {
		c.textb = []byte(c.text)
	}
	return bytes.Contains(c.textb, b)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Singular is a plural name's singular, by the common English endings:
// "branches" → "branch", "categories" → "category".
func Singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 4:
		return s[:len(s)-3] + "y"
	case len(s) > 4 && (strings.HasSuffix(s, "ches") || strings.HasSuffix(s, "shes") || strings.HasSuffix(s, "sses") || strings.HasSuffix(s, "xes") || strings.HasSuffix(s, "zes")):
		return s[:len(s)-2] // branches, boxes, addresses
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") && len(s) > 3:
		return s[:len(s)-1]
	}
	return s
}

// rowsOfValue reports whether a ranking names the rows of the table that d
// is the key or the label of by a value they hold, which the query keeps:
// "top 3 support agents by csat" ranks the employees whose title is
// Support Agent.
func (c *cover) rowsOfValue(d semantic.DimRef) bool {
	ent, col, ok := strings.Cut(d.Name, ".")
	e := c.m.Entity(ent)
	if !ok || e == nil || len(c.q.Order) == 0 || !strings.EqualFold(col, e.PrimaryKey) && !strings.EqualFold(col, e.Label) {
		return false
	}
	for _, f := range c.q.Filters {
		fe, _, isCol := strings.Cut(f.Field, ".")
		if dim := c.m.Dimension(f.Field); !isCol && dim != nil {
			fe = dim.Entity
		}
		if !strings.EqualFold(fe, e.Name) || f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		for _, x := range f.Values {
			// One value, in each of its spellings.
			v := strings.ToLower(fmt.Sprint(x))
			if v != strings.ToLower(fmt.Sprint(f.Values[0])) {
				break
			}
			if c.has(v) || c.has(v+"s") || strings.HasSuffix(v, "y") && c.has(strings.TrimSuffix(v, "y")+"ies") {
				return true
			}
		}
	}
	return false
}
