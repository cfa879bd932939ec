package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A verb the knowledge lists on one link of several between two tables
// names that link: "how many performances did James Carter direct" is
// read through the production's director, though performances also
// reach staff through their own house manager, whose verb is "manage".
// readLinks keeps to the paths through a listed link (verbPaths); where
// the one kept takes a role's link (pathRole), the question's values and
// groups of that table are read through the role (state.linkRole,
// linkRoleFields), as if the question had named it.

// verbPaths are, among paths, those through a link the knowledge lists
// verb on, where the rest of the plan can keep to them: each takes a
// role's link (pathRole), which its values and groups are read through,
// or is the one single join among paths, which the table's own name
// joins by. Nil where none or every path is listed, or one listed path
// could not be kept to ("flights departed from airports", the verb
// listed on origin: destination joins airports as directly).
func (p *Planner) verbPaths(paths [][]pathStep, verb string) [][]pathStep {
	singles := 0
	for _, path := range paths {
		if len(path) == 1 {
			singles++
		}
	}
	var out [][]pathStep
	for _, path := range paths {
		if !p.pathHasVerb(path, verb) {
			continue
		}
		if p.pathRole(path) == "" && (len(path) != 1 || singles != 1) {
			return nil
		}
		out = append(out, path)
	}
	if len(out) == len(paths) {
		return nil
	}
	return out
}

// pathRole is the role entity whose link path takes, where it takes
// exactly one: the link is one of several between two tables, which the
// table's own name cannot join by.
func (p *Planner) pathRole(path []pathStep) string {
	role := ""
	for _, s := range path {
		for i := range p.m.Entities {
			ro := p.m.Entities[i].Role
			if ro == nil || !strings.EqualFold(ro.From, s.rel.From) || !strings.EqualFold(ro.FromColumn, s.rel.FromColumn) || !strings.EqualFold(ro.Of, s.rel.To) {
				continue
			}
			if role != "" {
				return ""
			}
			role = p.m.Entities[i].Name
		}
	}
	return role
}

// linkRoleFields reads the whole plan through the role a verb read as a
// link reaches its table by (state.linkRole): the groups, the order and
// the filters the plan made on that table's columns after the question's
// values ("which staff directed the most performances" groups by the
// director, not by the house manager the table's own name joins).
func (p *Planner) linkRoleFields(st *state, pl *Plan) *Plan {
	e := p.entity(st.linkRole)
	if pl == nil || pl.Query == nil || e == nil || e.Role == nil {
		return pl
	}
	moved := func(field string) (string, bool) {
		if ent, col, ok := strings.Cut(field, "."); ok && strings.EqualFold(ent, e.Role.Of) {
			return e.Name + "." + col, true
		}
		return field, false
	}
	q := *pl.Query
	q.Filters = slices.Clone(q.Filters)
	q.Dimensions = slices.Clone(q.Dimensions)
	q.Order = slices.Clone(q.Order)
	q.Hidden = slices.Clone(q.Hidden)
	changed := false
	for i := range q.Filters {
		var ok bool
		q.Filters[i].Field, ok = moved(q.Filters[i].Field)
		changed = changed || ok
	}
	grouped := false
	for i := range q.Dimensions {
		var ok bool
		q.Dimensions[i].Name, ok = moved(q.Dimensions[i].Name)
		grouped = grouped || ok
	}
	changed = changed || grouped
	for i := range q.Order {
		q.Order[i].Field, _ = moved(q.Order[i].Field)
	}
	for i := range q.Hidden {
		q.Hidden[i], _ = moved(q.Hidden[i])
	}
	if !changed {
		return pl
	}
	c := *pl
	c.Query = &q
	c.Understood = append(slices.Clone(pl.Understood), fmt.Sprintf("%s read through %s (%s)", display(e.Role.Of), e.Name, e.Role.Via()))
	if grouped && c.Read == "" {
		// The checks hold the groups to the question in the role's
		// words: "which director directed the most performances".
		for _, t := range tokenize(st.raw) {
			if w := lower(e.Role.Of); t.s == w || t.s == singular(w) || t.s == plural(w) {
				c.Read = st.raw[:t.start] + strings.ToLower(display(e.Name)) + st.raw[t.end:]
				break
			}
		}
	}
	return &c
}

// byLinkGroups keeps a grouping said by the name of a link (state.byLinks)
// only where the rows measured or listed are the link's own, so that
// the table is joined through it; otherwise the words name no grouping
// quarry can read.
func (p *Planner) byLinkGroups(st *state, pl *Plan) *Plan {
	if len(st.byLinks) == 0 || pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	from := p.rowsOf(pl)
	c := *pl
	c.Understood, c.Notes = slices.Clone(pl.Understood), slices.Clone(pl.Notes)
	for _, l := range st.byLinks {
		if !strings.EqualFold(l.rel.From, from) {
			return p.unanswered(st, fmt.Sprintf("quarry could not tell what “%s” groups by: it names the link %s.%s, which the %s do not start from; ask by %s", l.words, l.rel.From, l.rel.FromColumn, display(from), display(l.rel.To)))
		}
		note := fmt.Sprintf("%q read as the %s of %s.%s", l.words, singular(strings.ToLower(display(l.rel.To))), l.rel.From, l.rel.FromColumn)
		c.Understood = append(c.Understood, note)
		c.Notes = append(c.Notes, note)
	}
	return &c
}

// otherLinkSaid asks which link a word means where it names a role of a
// table (the stage manager, reached through productions.stage_manager_id)
// and, as well, a link to that table straight from the rows measured
// (performances.house_manager_id, named house manager, its verb
// "manage"): "how many performances did Maria Lopez manage" may mean
// either, and the role is no likelier (found from outside: read as the
// stage manager, 45 at 0.72, where the house manager's were 181). Nil
// where no such other link is said.
func (b *builder) otherLinkSaid(t *term, name string) *Plan {
	e := b.p.entity(name)
	subject := b.subjectOfMetrics()
	if subject == "" {
		subject = b.subject
	}
	if e == nil || e.Role == nil || subject == "" || strings.EqualFold(e.Role.From, subject) {
		return nil
	}
	words := []string{strings.ToLower(t.it.text)}
	if t.it.via != "" {
		words = append(words, strings.ToLower(t.it.via))
	}
	said := func(r *semantic.Relationship) bool {
		ws := nameWords(r.Name)
		for _, w := range words {
			if len(ws) > 1 && w == ws[len(ws)-1] || slices.Contains(b.p.relVerbs[r], stemKey(w)) {
				return true
			}
		}
		return false
	}
	for i := range b.p.m.Relationships {
		r := &b.p.m.Relationships[i]
		if !strings.EqualFold(r.From, subject) || !strings.EqualFold(r.To, e.Role.Of) || !said(r) {
			continue
		}
		other := strings.Join(nameWords(r.Name), " ")
		mine := strings.ToLower(display(e.Name))
		return clarify(fmt.Sprintf("%q may name the %s (%s) or the %s (%s.%s); which do you mean?", t.it.text, mine, e.Role.Via(), other, r.From, r.FromColumn), mine, other)
	}
	return nil
}
