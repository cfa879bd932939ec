package planner

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// bridgeCount reads "the number of employees by shop" and "which shop has
// the most employees" where employees reach shops only through a table of
// pairs (hiring: Employee_ID, Shop_ID): the count of the employees becomes
// the count of their distinct keys among the pairs of each shop, so an
// employee of two shops counts in each, and once in one. It applies to a
// plain count of the rows grouped, with no period (the pairs' own date
// would date them instead), through the one table that refers once to
// each of the two; it reports whether it rewrote the count.
func (b *builder) bridgeCount(group string) bool {
	if len(b.q.Metrics) != 1 || len(b.st.dates) > 0 || len(b.st.grains) > 0 || b.st.compare || b.st.trend {
		return false
	}
	m := b.q.Metrics[0]
	s := b.countedEntity(m)
	if s == "" || !strings.EqualFold(s, b.subject) || strings.EqualFold(s, group) {
		return false
	}
	if mt := b.p.m.Metric(m); mt != nil && len(mt.Filters) > 0 {
		return false
	}
	if e := b.p.entity(s); e != nil && e.Role != nil && len(b.linksTo(e.Role.Of, group)) > 0 {
		// "how many servers at each restaurant", servers being the
		// staff orders name as their server: staff belong to a
		// restaurant of their own, and the staff who served there, ever,
		// are not its servers (found from outside: 16 for 8, at 0.85).
		return false
	}
	var bridge, fk string
	for i := range b.p.m.Entities {
		e := b.p.m.Entities[i].Name
		if strings.EqualFold(e, s) || strings.EqualFold(e, group) || b.p.m.Entities[i].Role != nil {
			continue
		}
		toS, toG := b.linksTo(e, s), b.linksTo(e, group)
		if len(toS) != 1 || len(toG) != 1 {
			continue
		}
		if bridge != "" {
			return false // two tables pair them: which?
		}
		bridge, fk = e, toS[0]
	}
	if bridge == "" {
		return false
	}
	name := "count_" + s
	expr := "COUNT(DISTINCT " + semantic.Ref(bridge, fk) + ")"
	k := -1
	for i := range b.adhoc {
		if b.adhoc[i].Name == m {
			k = i
		}
	}
	if k >= 0 {
		b.adhoc[k].Entity, b.adhoc[k].Expr = bridge, expr
	} else {
		b.addAdHoc(semantic.Metric{Name: name, Entity: bridge, Expr: expr, Format: "integer", Description: "number of " + display(s)})
		name = b.adhoc[len(b.adhoc)-1].Name
		b.q.Metrics = []string{name}
		if b.shown[m] {
			b.shown[name] = true
		}
	}
	b.subject = bridge
	b.notes = append(b.notes, "each of "+display(s)+" is counted once for every "+singular(display(group))+" it is paired with in "+display(bridge)+" ("+bridge+"."+fk+")")
	b.und("count of %s through %s", s, bridge)
	return true
}

// linksTo are the columns of entity from that refer, many to one, to
// entity to.
func (b *builder) linksTo(from, to string) []string {
	var out []string
	for _, r := range b.p.m.Relationships {
		if strings.EqualFold(r.From, from) && strings.EqualFold(r.To, to) && r.Cardinality == semantic.ManyToOne {
			out = append(out, r.FromColumn)
		}
	}
	return out
}

// listedBeside reports whether term t lists a table's rows ("show
// customers", "names of teachers") and a measure follows it after "and"
// ("… and the number of orders they placed"), with no grouping said: the
// measure is asked of each row listed.
func (b *builder) listedBeside(t *term) bool {
	st := b.st
	if !(t.rowsQ || t.named) || len(b.groups) > 0 || st.order != "" || len(st.having) > 0 || st.limit > 0 || len(st.grains) > 0 || st.compare || st.share {
		return false
	}
	if slices.ContainsFunc(st.terms, func(u *term) bool { return u.byMode }) {
		return false // a grouping said
	}
	for _, u := range st.terms {
		if u.pos <= t.pos || u.cands[0].kind != sMetric && (u.cands[0].kind != sEntity || !slices.Contains(u.aggs, "count")) {
			continue
		}
		for _, a := range st.andPos {
			if a > t.pos && a < u.pos {
				return true
			}
		}
	}
	return false
}

// nameThrough is the name of the rows of entity ent, which has no label
// of its own, where ent's one link to another table leads to a table
// with one ("poker_player.People_ID" → people.Name: each poker player is
// one person): that label, written entity.column, with a note; "" where
// ent has no link or several (an order line's product or order?).
func (b *builder) nameThrough(ent *semantic.Entity) string {
	var to *semantic.Entity
	var via string
	for _, r := range b.p.m.Relationships {
		if !strings.EqualFold(r.From, ent.Name) || r.Cardinality == semantic.OneToMany || r.Cardinality == semantic.ManyToMany {
			continue
		}
		if to != nil {
			return ""
		}
		to, via = b.p.entity(r.To), r.From+"."+r.FromColumn
	}
	if to == nil || to.Role != nil || b.p.label(to) == "" || b.p.m.IsRestricted(to.Name, b.p.label(to)) {
		return ""
	}
	b.notes = append(b.notes, "each "+singular(display(ent.Name))+" is named by its "+singular(display(to.Name))+" row's "+b.p.label(to)+" ("+via+")")
	b.und("%s named through %s", ent.Name, via)
	b.namedThrough = to.Name + "." + b.p.label(to)
	return b.namedThrough
}
