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

// route is one way up to an owner: through, the first table on it from
// the rows a query reads (the owner itself when they refer to it
// directly), by which a filter on the owner goes (semantic.Filter's
// Through); child, the rows the owner owns on it.
type route struct{ through, child string }

// add records that owner is an owner of from's rows: rows the query reads
// (read), among them those it measures or lists (measured), or another
// owner's. It reports whether owner is new.
func (r *ownerRoutes) add(owner, from string, read, measured bool) bool {
	if r.first == nil {
		r.first, r.other = map[string]route{}, map[string][]route{}
	}
	through := from // a table the query groups or filters by: its owner, by it
	switch {
	case read && measured:
		through = owner
	case !read:
		through = r.first[lower(from)].through
	}
	rt := route{through: through, child: from}
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
// own join.
func (r *ownerRoutes) again(read, from string) {
	through := r.first[lower(from)].through
	k := lower(read)
	if through == "" || slices.ContainsFunc(r.other[k], func(o route) bool { return strings.EqualFold(o.through, through) }) {
		return
	}
	if !slices.Contains(r.order, read) {
		r.order = append(r.order, read)
	}
	r.other[k] = append(r.other[k], route{through: through, child: from})
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
// on the first. Where the query does not compile with them (a way the
// compiler cannot follow), it keeps the first ways alone.
func (p *Planner) otherRoutes(pl *Plan, m *semantic.Model, q *semantic.Query, mts []*semantic.Metric, out *semantic.Query, routes ownerRoutes) {
	filters, notes, understood := len(out.Filters), len(pl.Notes), len(pl.Understood)
	firstWays := func() {
		out.Filters, pl.Notes, pl.Understood = out.Filters[:filters], pl.Notes[:notes], pl.Understood[:understood]
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
	for _, owner := range routes.order {
		e := m.Entity(owner)
		if e == nil || NamedRows(m, q, e) {
			continue
		}
		for _, rt := range routes.other[lower(owner)] {
			for _, c := range e.Columns {
				f, ok := unrealFilter(m, e, c)
				if !ok || !testWord(semantic.UnrealFlag(c)) && !p.goesWith(e, m.Entity(rt.child)) || readsColumn(m, q, mts, f.Field, c.Name) {
					continue
				}
				f.Through = rt.through
				out.Filters = append(out.Filters, f)
				word := unrealWord(e, c)
				pl.Notes = append(pl.Notes, fmt.Sprintf("the rows of %s of %s %s are left out too (%s); ask for them by name to count them", display(rt.through), word, display(e.Name), f.Field))
				pl.Understood = append(pl.Understood, fmt.Sprintf("leave out the rows of %s of %s %s (%s by way of %s)", display(rt.through), word, display(e.Name), f.Field, rt.through))
			}
		}
	}
	if _, err := semantic.Compile(m, *out, "sqlite"); err != nil {
		firstWays()
	}
}
