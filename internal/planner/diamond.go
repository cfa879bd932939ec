package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// ownerRoutes are the ways realRows finds up to each owner of the rows a
// query reads: the first, by which the owner's own filters are joined,
// and any other chain of owners that reaches it again — an attempt's
// agent and the agent of its ticket, an order line's listing's seller and
// its order's seller (found from outside: the failed attempts of tickets
// of test agents counted, 287 for 238, at 1.00, because the attempt's own
// agent was the one joined).
type ownerRoutes struct {
	order []string           // the owners, as found
	first map[string]route   // by owner, lower-cased
	other map[string][]route // by owner, lower-cased
}

// route is one way up to an owner: through, the table on it whose rows
// refer to the owner (the owner itself when the rows measured do), by
// which a filter on the owner goes (semantic.Filter's Through); child,
// the rows the owner owns on it; chain, the tables from the rows the
// query reads up to the owner; testOnly, whether the owner is reached by
// a key not named after it, which carries its test rows alone (ownerBy).
type route struct {
	through, child string
	chain          []string
	testOnly       bool
}

// add records that owner is an owner of from's rows: rows the query reads
// (read), among them those it measures or lists (measured), or another
// owner's; by a key not named after it (testOnly). It reports whether
// owner is new.
func (r *ownerRoutes) add(owner, from string, read, measured, testOnly bool) bool {
	if r.first == nil {
		r.first, r.other = map[string]route{}, map[string][]route{}
	}
	through, chain := from, []string{from, owner}
	if read && measured {
		through = owner
	}
	if !read {
		chain = append(slices.Clone(r.first[lower(from)].chain), owner)
	}
	rt := route{through: through, child: from, chain: chain, testOnly: testOnly}
	k := lower(owner)
	first, ok := r.first[k]
	if !ok {
		r.first[k] = rt
		r.order = append(r.order, owner)
		return true
	}
	if !strings.EqualFold(first.through, through) && !slices.ContainsFunc(r.other[k], func(o route) bool { return strings.EqualFold(o.through, through) }) {
		r.other[k] = append(r.other[k], rt)
	}
	return false
}

// again records that a table the query reads is an owner of from's rows,
// from an owner of the rows read: another way up to it than the query's
// own join; by a key not named after it (testOnly).
func (r *ownerRoutes) again(read, from string, testOnly bool) {
	k := lower(read)
	first, ok := r.first[lower(from)]
	if !ok || slices.ContainsFunc(r.other[k], func(o route) bool { return strings.EqualFold(o.through, from) }) {
		return
	}
	if !slices.Contains(r.order, read) {
		r.order = append(r.order, read)
	}
	r.other[k] = append(r.other[k], route{through: from, child: from, chain: append(slices.Clone(first.chain), read), testOnly: testOnly})
}

// goes reports whether the rows at the foot of chain go with its top
// deleted or void: at every step up, the rows go with the row they
// belong to (goesWith). A deleted customer's sites go with it, but the
// work orders of a site, dated events, do not go with a deleted site,
// nor so with the customer (found from outside: a deleted customer's
// work orders left out by way of its sites, 60 for 66 at 1.00).
func (p *Planner) goes(m *semantic.Model, chain []string) bool {
	for i := 0; i+1 < len(chain); i++ {
		if !p.goesWith(m.Entity(chain[i+1]), m.Entity(chain[i])) {
			return false
		}
	}
	return len(chain) > 1
}

// diamond reports whether some owner is reached up more than one chain.
func (r *ownerRoutes) diamond() bool { return len(r.other) > 0 }

// through is the table a filter on owner goes by on its first way up,
// where other ways reach it too and that one is not a reference of the
// rows measured themselves: a plain join would take one of the ways, not
// necessarily this one. "" otherwise.
func (r *ownerRoutes) through(owner string) string {
	k := lower(owner)
	if first := r.first[k]; len(r.other[k]) > 0 && !strings.EqualFold(first.through, owner) {
		return first.through
	}
	return ""
}

// otherRoutes leaves out of out, the query realRows is making, the rows
// whose owner is no real row up a way other than the first (a ticket of
// a test agent, where the attempt's own agent was read): a filter on the
// owner read through the first table of that way, as leaveOut reads it
// on the first. A way the compiler cannot follow is left as it was, and
// so is a first way, joined instead.
func (p *Planner) otherRoutes(pl *Plan, m *semantic.Model, q *semantic.Query, mts []*semantic.Metric, out *semantic.Query, routes ownerRoutes) {
	firstWays := func() {
		for i := range out.Filters {
			out.Filters[i].Through = ""
		}
	}
	subject := subjectOf(m, q, mts)
	for _, mt := range mts {
		if subject == "" || !strings.EqualFold(mt.Entity, subject) {
			firstWays() // a Through filter is on the first measure's rows
			return
		}
	}
	if _, err := semantic.Compile(m, *out, "sqlite"); err != nil {
		firstWays() // a first way the compiler cannot follow: joined
	}
	for _, owner := range routes.order {
		e := m.Entity(owner)
		if e == nil || NamedRows(m, q, e) {
			continue
		}
		for _, rt := range routes.other[lower(owner)] {
			filters, notes, understood := len(out.Filters), len(pl.Notes), len(pl.Understood)
			for _, c := range e.Columns {
				f, ok := unrealFilter(m, e, c)
				if !ok || !testWord(semantic.UnrealFlag(c)) && (rt.testOnly || !p.goes(m, rt.chain)) || readsColumn(m, q, mts, f.Field, c.Name) {
					continue
				}
				f.Through = rt.through
				out.Filters = append(out.Filters, f)
				word := unrealWord(e, c)
				pl.Notes = append(pl.Notes, fmt.Sprintf("the rows of %s of %s %s are left out too (%s); ask for them by name to count them", display(rt.through), word, display(e.Name), f.Field))
				pl.Understood = append(pl.Understood, fmt.Sprintf("leave out the rows of %s of %s %s (%s by way of %s)", display(rt.through), word, display(e.Name), f.Field, rt.through))
			}
			if len(out.Filters) > filters {
				if _, err := semantic.Compile(m, *out, "sqlite"); err != nil {
					// A way the compiler cannot follow: this one
					// is left as it was.
					out.Filters, pl.Notes, pl.Understood = out.Filters[:filters], pl.Notes[:notes], pl.Understood[:understood]
				}
			}
		}
	}
}

// routesUp are the ways up to the owners of name's rows (a key named
// after each: an attempt's shipment, its customer), up to three steps,
// the way realRows finds those of the rows measured; none through
// avoid, the rows a related condition's subquery refers to from outside,
// which it cannot join again. An owner by a key not named after it
// (ownerBy) is not climbed from.
func (p *Planner) routesUp(m *semantic.Model, name, avoid string) ownerRoutes {
	var r ownerRoutes
	next := []string{name}
	for step := 0; step < 3 && len(next) > 0; step++ {
		var found []string
		for _, at := range next {
			for _, rel := range m.Relationships {
				if !strings.EqualFold(rel.From, at) || rel.Cardinality != semantic.ManyToOne && rel.Cardinality != semantic.OneToOne || strings.EqualFold(rel.To, at) {
					continue
				}
				parent := m.Entity(rel.To)
				if parent == nil || strings.EqualFold(parent.Name, name) || strings.EqualFold(parent.Name, avoid) {
					continue
				}
				owned, refersTest := p.ownerBy(m, parent, at)
				if (owned || refersTest) && r.add(parent.Name, at, at == name, at == name, !owned) && owned {
					found = append(found, parent.Name)
				}
			}
		}
		next = found
	}
	return r
}

// ownersUp are the owners routesUp found, each with the rows of the first
// chain it owns.
func ownersUp(m *semantic.Model, r ownerRoutes) []ownedBy {
	out := make([]ownedBy, 0, len(r.order))
	for _, o := range r.order {
		rt := r.first[lower(o)]
		out = append(out, ownedBy{entity: m.Entity(o), child: m.Entity(rt.child), testOnly: rt.testOnly})
	}
	return out
}

// otherRoutesUp are the conditions that leave out of the rows e a related
// condition f counts or asks for those whose owner is no real row up a way
// other than the first (the shortest, which the subquery joins): each
// read by way of the table on it that refers to the owner. It returns
// what each says, for the reading. routes are those of e's rows
// (routesUp).
func (p *Planner) otherRoutesUp(m *semantic.Model, f semantic.Filter, e *semantic.Entity, subject string, routes ownerRoutes) (out []semantic.Filter, said []string) {
	for _, owner := range routes.order {
		oe := m.Entity(owner)
		for _, rt := range routes.other[lower(owner)] {
			for _, c := range oe.Columns {
				w, ok := unrealFilter(m, oe, c)
				if !ok || !testWord(semantic.UnrealFlag(c)) && (rt.testOnly || !p.goes(m, rt.chain)) {
					continue
				}
				if (f.Op == semantic.OpSome || f.Op == semantic.OpNone) && semantic.DeletionDate(c) && subject != "" && p.upOf(lower(subject))[lower(owner)] {
					continue // the row each refers to, deleted since, was still theirs (realRows)
				}
				w.Through = rt.through
				out = append(out, w)
				said = append(said, fmt.Sprintf("leave out the %s of %s of %s %s (%s by way of %s)", display(e.Name), display(rt.through), unrealWord(oe, c), display(oe.Name), w.Field, rt.through))
			}
		}
	}
	return out, said
}
