package semantic

import (
	"slices"
	"strings"
)

// How the rows of one entity relate to each row of another, for a
// condition on related rows ("customers who bought Toys": EXISTS an order
// line of theirs whose product is a toy). In order, the first that fits:
// the one relationship between the two; else the one shortest chain of
// references from related's rows up to outer's (appointments → pets →
// owners); else the one entity whose rows refer to both (a student's pets
// through has_pet); else the one chain
// of references, each row to one row, that starts at an entity and ends
// at both (order_items → orders → customers and order_items → products),
// at most two steps to each end. Two of a kind are refused: quarry does
// not guess which is meant.

// RelatedPath is how the rows of related reach a row of outer: Link is
// the entity the subquery starts from (related itself, or the rows that
// refer to both), ToRelated the references from Link to related, ToOuter
// those from Link to outer, the last of which ties the subquery to the
// outer row.
type RelatedPath struct {
	Link      string
	ToRelated []Relationship
	ToOuter   []Relationship
}

// Related reports how related's rows reach each row of outer beyond one
// relationship between them (Direct reports that); false where no path
// fits, or several do.
func (m *Model) Related(outer, related string) (RelatedPath, bool) {
	if strings.EqualFold(outer, related) || m.joinedDirectly(outer, related) > 0 {
		return RelatedPath{}, false
	}
	// related's own rows up to outer, by one chain shorter than any
	// other: an appointment's owner is its pet's, not the owner its
	// invoice is billed to (found from outside: "owners who had an
	// appointment" went through the invoices, which refer to both, and
	// left out every owner whose appointments had none).
	avoid := map[string]bool{strings.ToLower(outer): true, strings.ToLower(related): true}
	if up := shortest(m.upPaths(related, outer, 3, avoid)); len(up) == 1 {
		return RelatedPath{Link: related, ToOuter: up[0]}, true
	}
	// The one entity that refers to both.
	var one []RelatedPath
	for i := range m.Entities {
		l := m.Entities[i].Name
		if strings.EqualFold(l, outer) || strings.EqualFold(l, related) {
			continue
		}
		to, tr := m.refsFrom(l, outer), m.refsFrom(l, related)
		if len(to) == 1 && len(tr) == 1 {
			one = append(one, RelatedPath{Link: l, ToRelated: tr, ToOuter: to})
		}
	}
	switch len(one) {
	case 1:
		return one[0], true
	case 0:
	default:
		return RelatedPath{}, false
	}
	// A chain of references: related's rows up to outer, or the rows of
	// another entity up to both.
	// The shortest chains win, as the shortest join path does: payments
	// reach accounts through their invoice (two steps) before through the
	// invoice's subscription (three); two of the shortest length are
	// refused.
	var chains []RelatedPath
	for _, p := range m.upPaths(related, outer, 3, avoid) {
		if len(p) > 1 {
			chains = append(chains, RelatedPath{Link: related, ToOuter: p})
		}
	}
	for i := range m.Entities {
		l := m.Entities[i].Name
		if avoid[strings.ToLower(l)] {
			continue
		}
		po, pr := shortest(m.upPaths(l, outer, 2, avoid)), shortest(m.upPaths(l, related, 2, avoid))
		if len(po) == 0 || len(pr) == 0 {
			continue
		}
		if len(po) > 1 || len(pr) > 1 || shareEntity(po[0], pr[0]) {
			chains = append(chains, RelatedPath{}, RelatedPath{}) // more than one way: refused
			continue
		}
		if len(po[0])+len(pr[0]) >= 3 {
			chains = append(chains, RelatedPath{Link: l, ToRelated: pr[0], ToOuter: po[0]})
		}
	}
	best := -1
	for _, c := range chains {
		if n := c.steps(); c.Link != "" && (best < 0 || n < best) {
			best = n
		}
	}
	var kept []RelatedPath
	for _, c := range chains {
		if c.Link == "" || c.steps() == best {
			kept = append(kept, c)
		}
	}
	if len(kept) != 1 || kept[0].Link == "" {
		return RelatedPath{}, false
	}
	return kept[0], true
}

// steps is the number of references a path joins.
func (p RelatedPath) steps() int { return len(p.ToRelated) + len(p.ToOuter) }

// shortest keeps the shortest of paths.
func shortest(paths [][]Relationship) [][]Relationship {
	var out [][]Relationship
	for _, p := range paths {
		switch {
		case len(out) == 0 || len(p) < len(out[0]):
			out = [][]Relationship{p}
		case len(p) == len(out[0]):
			out = append(out, p)
		}
	}
	return out
}

// joinedDirectly counts the relationships between a and b.
func (m *Model) joinedDirectly(a, b string) int {
	n := 0
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, a) && strings.EqualFold(r.To, b) || strings.EqualFold(r.From, b) && strings.EqualFold(r.To, a) {
			n++
		}
	}
	return n
}

// refsFrom are the references of from's rows, each to one row of to.
func (m *Model) refsFrom(from, to string) []Relationship {
	var out []Relationship
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, from) && strings.EqualFold(r.To, to) && r.Cardinality != OneToMany && r.Cardinality != ManyToMany {
			out = append(out, r)
		}
	}
	return out
}

// upPaths are the chains of references, each row to one row, from from's
// rows up to to's, of at most max steps, through no entity of avoid (nor
// one twice).
func (m *Model) upPaths(from, to string, max int, avoid map[string]bool) [][]Relationship {
	var out [][]Relationship
	seen := map[string]bool{strings.ToLower(from): true}
	var walk func(at string, path []Relationship)
	walk = func(at string, path []Relationship) {
		if len(path) == max {
			return
		}
		for _, r := range m.Relationships {
			if !strings.EqualFold(r.From, at) || r.Cardinality == OneToMany || r.Cardinality == ManyToMany || strings.EqualFold(r.From, r.To) {
				continue
			}
			p := append(slices.Clone(path), r)
			if strings.EqualFold(r.To, to) {
				out = append(out, p)
				continue
			}
			next := strings.ToLower(r.To)
			if seen[next] || avoid[next] {
				continue
			}
			seen[next] = true
			walk(r.To, p)
			delete(seen, next)
		}
	}
	walk(from, nil)
	return out
}

// shareEntity reports whether two chains from one entity pass through a
// common entity, which the subquery could not join twice.
func shareEntity(a, b []Relationship) bool {
	for _, x := range a {
		for _, y := range b {
			if strings.EqualFold(x.To, y.To) {
				return true
			}
		}
	}
	return false
}

// Passes reports whether the path goes through entity e: the rows it
// starts from, or a table it joins on its way to either end.
func (p RelatedPath) Passes(e string) bool {
	if strings.EqualFold(p.Link, e) {
		return true
	}
	for _, r := range append(slices.Clone(p.ToRelated), p.ToOuter...) {
		if strings.EqualFold(r.To, e) {
			return true
		}
	}
	return false
}
