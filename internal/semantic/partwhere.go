package semantic

import "strings"

// partWhere is the conditions of a query that the part b of a derived
// measure reads its rows with: where another part measures the rows a
// condition is on, and b's rows reach them only through a join that
// repeats b's (a table below b's), the condition is that part's, not b's.
//
// "Claims per policy", with deleted claims left out, divided by the
// policies left joined to their claims WHERE claims.deleted_at IS NULL:
// the policies whose only claim was deleted fell out of the divisor,
// though "every policy counted" (found from outside: 0.3751 for 0.3715).
// A condition on a table above b's (the customers of orders) still
// keeps b's rows to it; so does every condition of a measure with one
// part.
func (c *compiler) partWhere(b *Metric, bases []*Metric, where []cond) []cond {
	if len(bases) < 2 || len(where) == 0 {
		return where
	}
	root, err := c.metricEntity(b)
	if err != nil {
		return where
	}
	var roots []string
	for _, o := range bases {
		if o == b {
			continue
		}
		if r, err := c.metricEntity(o); err == nil && !strings.EqualFold(r, root) {
			roots = append(roots, r)
		}
	}
	out := make([]cond, 0, len(where))
	for _, w := range where {
		if !c.otherPart(root, roots, w) {
			out = append(out, w)
		}
	}
	return out
}

// otherPart reports whether every table cond w reads is below root (not
// root, not reached from it by keys that point up) and is one another
// part's rows reach, or are.
func (c *compiler) otherPart(root string, roots []string, w cond) bool {
	if len(w.refs) == 0 {
		return false
	}
	for _, r := range w.refs {
		if strings.EqualFold(r.Entity, root) || c.m.above(root, r.Entity) {
			return false
		}
		held := false
		for _, o := range roots {
			held = held || strings.EqualFold(o, r.Entity) || c.m.above(o, r.Entity)
		}
		if !held {
			return false
		}
	}
	return true
}

// above reports whether to is among from's parents.
func (m *Model) above(from, to string) bool {
	for p := range m.Parents(from) {
		if strings.EqualFold(p, to) {
			return true
		}
	}
	return false
}

// Parents are the entities that rows of e point at, directly or through
// other entities, along relationships that each lead from many rows, or
// one, to one (foreign keys followed to the rows they point at).
func (m *Model) Parents(e string) map[string]bool {
	seen := map[string]bool{}
	next := []string{e}
	for len(next) > 0 {
		cur := next[0]
		next = next[1:]
		for _, r := range m.Relationships {
			var up string
			switch {
			case strings.EqualFold(r.From, cur) && (r.Cardinality == ManyToOne || r.Cardinality == OneToOne):
				up = r.To
			case strings.EqualFold(r.To, cur) && (r.Cardinality == OneToMany || r.Cardinality == OneToOne):
				up = r.From
			}
			if up != "" && !strings.EqualFold(up, e) && !seen[up] {
				seen[up] = true
				next = append(next, up)
			}
		}
	}
	return seen
}
