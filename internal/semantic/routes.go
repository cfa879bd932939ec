package semantic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Through names the tables a route passes through where the other route
// does not: those both entered and left by its own joins (agents, of
// tickets → agents → teams against tickets → products → teams); empty for
// one relationship against another. target, where both routes end, is
// left out.
func (m *Model) Through(route, other []int, target string) []string {
	seen := map[string]int{}
	var order []string
	for _, rel := range route {
		if rel < 0 || rel >= len(m.Relationships) || slices.Contains(other, rel) {
			continue
		}
		r := m.Relationships[rel]
		for _, e := range []string{r.From, r.To} {
			if seen[e] == 0 {
				order = append(order, e)
			}
			seen[e]++
		}
	}
	var out []string
	for _, e := range order {
		if seen[e] > 1 && !strings.EqualFold(e, target) {
			out = append(out, e)
		}
	}
	return out
}

// named are the entities a query names besides its own rows: Via, the
// related rows its filters test, and the entities of the fields it
// filters and groups by.
func (q *Query) named(m *Model) []string {
	var out []string
	add := func(name string) {
		if e := m.Entity(name); e != nil && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, e.Name) }) {
			out = append(out, e.Name)
		}
	}
	field := func(f string) {
		if d := m.Dimension(f); d != nil {
			add(d.Entity)
		} else if ent, _, ok := strings.Cut(f, "."); ok {
			add(ent)
		}
	}
	for _, v := range q.Via {
		add(v)
	}
	var filters func(fs []Filter)
	filters = func(fs []Filter) {
		for _, f := range fs {
			if f.OnRelated() {
				add(f.Field)
				filters(f.Where)
				continue
			}
			field(f.Field)
		}
	}
	filters(q.Filters)
	for _, d := range q.Dimensions {
		field(d.Name)
	}
	return out
}

// byNamedRoutes compiles q again where a join was a choice between two
// routes and the query names a table on the one passed over and none on
// the one taken ("tickets handled by agents in the Billing team": teams
// through the agents, not through the products declared first). The
// choices it returns say which tables decided (Named), with the indices of
// m's relationships. It returns out itself where nothing named decides.
func byNamedRoutes(m *Model, q Query, d quarry.Dialect, out *Compiled) *Compiled {
	if m.routesFixed || len(out.Choices) == 0 {
		return out
	}
	named := q.named(m)
	has := func(names []string) []string {
		var hit []string
		for _, n := range names {
			if slices.ContainsFunc(named, func(x string) bool { return strings.EqualFold(x, n) }) {
				hit = append(hit, n)
			}
		}
		return hit
	}
	var prefer []int
	for _, ch := range out.Choices {
		if ch.Used >= len(m.Relationships) {
			continue
		}
		target := m.Relationships[ch.Used].To
		used, other := has(m.Through(ch.UsedPath, ch.OtherPath, target)), has(m.Through(ch.OtherPath, ch.UsedPath, target))
		if len(other) > 0 && len(used) == 0 {
			prefer = append(prefer, ch.OtherPath...)
		}
	}
	orig := make([]int, len(m.Relationships))
	for i := range orig {
		orig[i] = i
	}
	if len(prefer) > 0 {
		pm, o := m.preferring(prefer)
		again, err := compile(pm, q, d)
		if err != nil {
			return out
		}
		out, orig = again, o
	}
	back := func(rels []int) []int {
		r := make([]int, len(rels))
		for i, rel := range rels {
			r[i] = orig[rel]
		}
		return r
	}
	var said []string
	for i, ch := range out.Choices {
		ch = JoinChoice{Used: orig[ch.Used], Other: orig[ch.Other], UsedPath: back(ch.UsedPath), OtherPath: back(ch.OtherPath)}
		target := m.Relationships[ch.Used].To
		if used, other := has(m.Through(ch.UsedPath, ch.OtherPath, target)), has(m.Through(ch.OtherPath, ch.UsedPath, target)); len(other) == 0 {
			ch.Named = used
		}
		out.Choices[i] = ch
		if len(ch.Named) > 0 {
			out.Notes = slices.DeleteFunc(out.Notes, func(n string) bool { return strings.HasPrefix(n, target+" reached through ") })
			said = append(said, fmt.Sprintf("%s reached through %s, which the question names; %s would also join it",
				target, strings.Join(ch.Named, " and "), relText(m.Relationships[ch.Other])))
		}
	}
	out.Notes = append(out.Notes, said...)
	return out
}

// preferring is Preferring, also returning, for each relationship of the
// copy, its index in m.
func (m *Model) preferring(rels []int) (*Model, []int) {
	c := m.Preferring(rels...)
	orig := make([]int, 0, len(m.Relationships))
	for _, rel := range rels {
		if rel >= 0 && rel < len(m.Relationships) && !slices.Contains(orig, rel) {
			orig = append(orig, rel)
		}
	}
	for i := range m.Relationships {
		if !slices.Contains(orig, i) {
			orig = append(orig, i)
		}
	}
	return c, orig
}
