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

// OtherWay names the tables a query goes through (Query.Via) to take the
// route ch passed over to target: those Through names, or, for a route
// one join longer (JoinChoice.Longer), the table it enters target from,
// for the compiler leaves the shortest way only for a table named on
// another.
func (m *Model) OtherWay(ch JoinChoice, target string) []string {
	if !ch.Longer {
		return m.Through(ch.OtherPath, ch.UsedPath, target)
	}
	if ch.Other < 0 || ch.Other >= len(m.Relationships) {
		return nil
	}
	r := m.Relationships[ch.Other]
	if strings.EqualFold(r.To, target) {
		return []string{r.From}
	}
	return []string{r.To}
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
			if m.leavesOutUnreal(f) {
				// Test and deleted rows left out, which the question
				// does not name: no route of its choosing (found from
				// outside: "donations by location" went by the donor's
				// office, joined for its test flag, and the campaign's
				// office was never offered).
				continue
			}
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

// leavesOutUnreal reports whether f only leaves out rows marked as no
// real data: a test or deleted flag not yes, a deletion date not set (or
// set after a day).
func (m *Model) leavesOutUnreal(f Filter) bool {
	fd, ok := m.ColumnField(f.Field)
	if !ok || f.OnRelated() {
		return false
	}
	switch {
	case UnrealFlag(*fd.Column) != "":
		return f.Op == OpNe || f.Op == OpNotIn
	case DeletionDate(*fd.Column):
		return f.Op == OpNull || f.Op == OpGe && f.OrNull
	}
	return false
}

// byNamedRoutes compiles q again where a join was a choice between two
// routes and the query names a table on the one passed over and none on
// the one taken ("tickets handled by agents in the Billing team": teams
// through the agents, not through the products declared first). The
// choices it returns say which tables decided (Named), with the indices of
// m's relationships. It returns out itself where nothing named decides.
func byNamedRoutes(m *Model, q Query, d quarry.Dialect, out *Compiled) *Compiled {
	if len(out.Choices) == 0 {
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
	// One note for each table reached, naming every route passed over.
	var targets []string
	also := map[string][]string{}
	namedOn := map[string][]string{}
	for i, ch := range out.Choices {
		ch = ch.in(orig)
		target := m.Relationships[ch.Used].To
		if used, other := has(m.Through(ch.UsedPath, ch.OtherPath, target)), has(m.Through(ch.OtherPath, ch.UsedPath, target)); len(other) == 0 {
			ch.Named = used
		}
		out.Choices[i] = ch
		if len(ch.Named) > 0 {
			if _, ok := namedOn[target]; !ok {
				targets = append(targets, target)
				namedOn[target] = ch.Named
			}
			also[target] = append(also[target], relText(m.Relationships[ch.Other]))
		}
	}
	for _, target := range targets {
		out.Notes = slices.DeleteFunc(out.Notes, func(n string) bool { return strings.HasPrefix(n, target+" reached through ") })
		out.Notes = append(out.Notes, fmt.Sprintf("%s reached through %s, which the question names; %s would also join it",
			target, strings.Join(namedOn[target], " and "), strings.Join(also[target], " or ")))
	}
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

// throughVia holds a query to the tables it goes through (Query.Via)
// where the shortest way to the table after them does not pass them
// ("orders of sellers in the West": regions through the listing's seller,
// three joins, not the buyer's, two; found from outside, where the answer
// said "through sellers" and read the buyers' regions). For each such
// table it compiles again with the other ways into the table it leads to
// set aside, and takes that if it reads the table; otherwise it refuses
// rather than answer by another route.
func throughVia(m *Model, q Query, d quarry.Dialect, out *Compiled) (*Compiled, error) {
	for _, v := range q.Via {
		ve := m.Entity(v)
		if ve == nil || out.joined[strings.ToLower(ve.Name)] || relatedOnly(q.Filters, ve.Name) {
			continue
		}
		again, ok := forcedThrough(m, q, d, ve.Name)
		if !ok {
			return nil, quarry.Errorf(quarry.KindUnanswered, "the question goes through %s, but quarry could not join the rest of it through %s; ask for it by a column of %s, or without it", ve.Name, ve.Name, ve.Name)
		}
		// Two tables named on two ways to one table ("… of agents and
		// of policyholders"): which way, the question does not say.
		for _, w := range q.Via {
			if we := m.Entity(w); we != nil && out.joined[strings.ToLower(we.Name)] && !again.joined[strings.ToLower(we.Name)] {
				return nil, quarry.Errorf(quarry.KindUnanswered, "the question goes through both %s and %s, which reach the rest of it by different ways; ask through one of them", we.Name, ve.Name)
			}
		}
		out = again
	}
	return out, nil
}

// relatedOnly reports whether e is the related rows of a filter (EXISTS),
// which reads it without a join.
func relatedOnly(fs []Filter, e string) bool {
	for _, f := range fs {
		if f.OnRelated() && strings.EqualFold(f.Field, e) {
			return true
		}
	}
	return false
}

// forcedThrough compiles q with v on the way to each table the query
// names that v reaches by many-to-one joins: the relationships into that
// table from tables off v's way to it are set aside. It reports whether
// the query then reads v.
func forcedThrough(m *Model, q Query, d quarry.Dialect, v string) (*Compiled, bool) {
	adj := m.edges()
	tree := m.buildJoinTree(v, adj)
	var drop []int
	for _, target := range q.named(m) {
		if strings.EqualFold(target, v) {
			continue
		}
		steps, err := tree.path(target)
		if err != nil || len(steps) == 0 {
			continue
		}
		on := map[int]bool{}
		fan := false
		for _, s := range steps {
			on[s.rel] = true
			fan = fan || s.fanOut
		}
		if fan {
			continue
		}
		for i, r := range m.Relationships {
			if on[i] || !strings.EqualFold(r.To, target) && !strings.EqualFold(r.From, target) {
				continue
			}
			drop = append(drop, i)
		}
	}
	if len(drop) == 0 {
		return nil, false
	}
	c := *m
	c.Relationships = make([]Relationship, 0, len(m.Relationships))
	var orig []int
	for i, r := range m.Relationships {
		if !slices.Contains(drop, i) {
			c.Relationships = append(c.Relationships, r)
			orig = append(orig, i)
		}
	}
	again, err := compile(&c, q, d)
	if err != nil || !again.joined[strings.ToLower(v)] {
		return nil, false
	}
	for i, ch := range again.Choices {
		again.Choices[i] = ch.in(orig)
	}
	again.Notes = append(again.Notes, fmt.Sprintf("joined through %s, which the question names, though another way is shorter", v))
	return again, true
}
