package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A relationship named by its role: "tickets by assignee", "orders per
// agent". The knowledge names a many-to-one link by its role
// (relationship name "assignee", or a synonym of its key column), and
// the rows it points at are a table with a label: the role is read as
// that table ("tickets by employee"), grouped by its key and label. Only
// where the link is the one link between the two tables, so that the
// join the compiler takes is the one the role names; a link of a table
// to itself ("referrer", "manager") is not read so, as its rows are
// the question's own.

// roleLink is a many-to-one link named by a role and the table it points
// at.
type roleLink struct {
	rel  *semantic.Relationship
	word string // the role as the question wrote it
}

// byRole replans question with each role that names a link written as
// the table the link points at; nil when no unknown word names one, or
// the question so read is not about the link's rows.
func (p *Planner) byRole(question string, asOf time.Time, unknown []string) *Plan {
	if len(unknown) == 0 {
		return nil
	}
	toks := tokenize(question)
	var links []roleLink
	var b strings.Builder
	last := 0
	for _, t := range toks {
		if !hasString(unknown, t.s) {
			continue
		}
		target := p.rolesTo(t.s)
		if target == "" {
			return nil
		}
		to := p.entity(target)
		name := strings.ToLower(display(to.Name))
		if singular(t.s) == t.s {
			name = singular(name)
		}
		b.WriteString(question[last:t.start])
		b.WriteString(name)
		last = t.end
		links = append(links, roleLink{word: t.s})
	}
	if len(links) == 0 || len(links) != len(unknown) {
		return nil
	}
	b.WriteString(question[last:])
	read := b.String()
	pl := p.planWhole(read, asOf)
	if pl.Kind == KindUnanswered && len(pl.Unknown) == 0 && pl.Reason != "" {
		// "tickets by assignee country": every word read with the role,
		// and refused for what that reading says (employees have no
		// country), which tells more than the role's word not known.
		for _, l := range links {
			note := fmt.Sprintf("%q read as a %s", l.word, singular(strings.ToLower(display(p.rolesTo(l.word)))))
			if r := p.roleOf(l.word); r != nil {
				note = fmt.Sprintf("%q read as the %s of %s.%s", l.word, singular(strings.ToLower(display(r.To))), r.From, r.FromColumn)
			}
			pl.Understood = append(pl.Understood, note)
			pl.Reason = note + ": " + pl.Reason
		}
		return pl
	}
	if pl.Kind != KindMetric && pl.Kind != KindRows || pl.Query == nil {
		return nil
	}
	// The rows measured or listed must be those the link starts from.
	from := p.rowsOf(pl)
	if pl.Read == "" {
		pl.Read = read
	}
	for i := range links {
		// The link of the rows measured, of those the word names.
		if links[i].rel = p.roleFrom(links[i].word, from); links[i].rel == nil {
			return nil
		}
	}
	for _, l := range links {
		if cl := p.linkValueClarify(question, asOf, l.word, l.rel.From, l.rel.FromColumn, p.entity(l.rel.To), pl.Query, len(pl.Query.Order) > 0 || pl.Query.Limit > 0); cl != nil {
			return cl
		}
		note := fmt.Sprintf("%q read as the %s of %s.%s", l.word, singular(strings.ToLower(display(l.rel.To))), l.rel.From, l.rel.FromColumn)
		pl.Understood = append(pl.Understood, note)
		pl.Notes = append(pl.Notes, note)
	}
	return pl
}

// roleOf is the one many-to-one link that word names by its role (the
// relationship's name or a synonym of its key column), between two
// different tables that no other link joins, pointing at a table with a
// label; nil otherwise.
func (p *Planner) roleOf(word string) *semantic.Relationship {
	if rs := p.rolesOf(word); len(rs) == 1 {
		return rs[0]
	}
	return nil
}

// roleFrom is the link of table from among those word names by its role
// (rolesOf): "fundraiser" of donations and of pledges is each table's
// own fundraiser_id; nil where none or several start there.
func (p *Planner) roleFrom(word, from string) *semantic.Relationship {
	var hit *semantic.Relationship
	for _, r := range p.rolesOf(word) {
		if strings.EqualFold(r.From, from) {
			if hit != nil {
				return nil
			}
			hit = r
		}
	}
	return hit
}

// rolesTo is the one table the links word names by its role point at,
// "" where none or several.
func (p *Planner) rolesTo(word string) string {
	to := ""
	for _, r := range p.rolesOf(word) {
		if to != "" && !strings.EqualFold(to, r.To) {
			return ""
		}
		to = r.To
	}
	return to
}

// rolesOf are the many-to-one links word names by its role, each between
// two different tables that no other link joins, pointing at a table with
// a label.
func (p *Planner) rolesOf(word string) []*semantic.Relationship {
	var out []*semantic.Relationship
	for i := range p.m.Relationships {
		r := &p.m.Relationships[i]
		if r.Cardinality == semantic.OneToMany || r.Cardinality == semantic.ManyToMany || strings.EqualFold(r.From, r.To) {
			continue
		}
		names := []string{r.Name}
		if e := p.entity(r.From); e != nil {
			if c := e.Column(r.FromColumn); c != nil {
				names = append(names, c.Synonyms...)
			}
		}
		named := false
		for _, n := range names {
			n = strings.Join(words(n), " ")
			named = named || n != "" && (n == word || n == singular(word))
		}
		if !named {
			continue
		}
		to := p.entity(r.To)
		if to == nil || p.label(to) == "" || p.entity(r.From) == nil {
			continue
		}
		alone := true
		for j := range p.m.Relationships {
			o := &p.m.Relationships[j]
			if o != r && (strings.EqualFold(o.From, r.From) && strings.EqualFold(o.To, r.To) || strings.EqualFold(o.From, r.To) && strings.EqualFold(o.To, r.From)) {
				alone = false
			}
		}
		if alone {
			out = append(out, r)
		}
	}
	return out
}

// linkWordIsValue asks which is meant when the word that names a link
// ("agents", support_tickets.assignee_id) also ends a value of the
// linked table ("Support Agent", a title of employees) that the question
// does not say: every employee the tickets are assigned to, or the
// support agents alone (found from outside: "top 3 agents by csat" ranked
// engineers with a few escalated tickets first).
func (b *builder) linkWordIsValue(t *term, s sense, target *semantic.Entity) *Plan {
	if strings.EqualFold(s.entity, target.Name) {
		return nil
	}
	return b.p.linkValueClarify(b.st.raw, b.st.asOf, t.it.text, s.entity, s.column, target, &b.q, b.st.order != "" || b.st.limit > 0 || b.st.sup)
}

// linkValueClarify is linkWordIsValue for question's plan's query q: nil unless the
// question ranks (a breakdown shows every row it names, and who each
// is), word is one word that ends exactly one value of a column of
// target, and q keeps no condition on target's rows.
func (p *Planner) linkValueClarify(question string, asOf time.Time, word, from, column string, target *semantic.Entity, q *semantic.Query, ranked bool) *Plan {
	ws := strings.Fields(lower(word))
	if len(ws) != 1 || q == nil || !ranked {
		return nil
	}
	w := singular(ws[0])
	for _, f := range q.Filters {
		if len(f.Values) > 0 && strings.EqualFold(p.fieldEntity(f.Field), target.Name) {
			return nil // the question already says which of them
		}
	}
	var hits []string
	col := ""
	for _, c := range target.Columns {
		if p.m.IsRestricted(target.Name, c.Name) {
			continue
		}
		for _, v := range c.Values {
			if vw := words(v); len(vw) > 1 && vw[len(vw)-1] == w {
				hits, col = append(hits, v), c.Name
			}
		}
	}
	if len(hits) != 1 {
		return nil
	}
	link := words(column)
	if len(link) > 1 && link[len(link)-1] == "id" {
		link = link[:len(link)-1]
	}
	role, value := strings.Join(link, " "), lower(hits[0])
	if rw := strings.Fields(value); len(rw) > 0 {
		rw[len(rw)-1] = plural(rw[len(rw)-1])
		value = strings.Join(rw, " ")
	}
	what := fmt.Sprintf("By %q do you mean each %s named as the %s of a %s, or only the %s whose %s is %s?",
		word, singular(lower(display(target.Name))), role, singular(lower(display(from))), lower(display(target.Name)), display(col), hits[0])
	if opts := p.askedEachWay(question, asOf, ws[0], target, [][]string{{singular(role), lower(hits[0])}, {plural(role), value}}); opts != nil {
		return clarify(what, opts...)
	}
	return clarify(what, plural(role), value)
}

// askedEachWay is question asked each way a question back offers, as a
// person who picks an option means it (the web page sends the option as
// the next question): word put in place by each of the first of forms
// whose every wording ranks target's rows, in the word's own number
// first ("the agent with the best csat" is one). Nil where no form does.
func (p *Planner) askedEachWay(question string, asOf time.Time, word string, target *semantic.Entity, forms [][]string) []string {
	at := wordAt(lower(question), word, 0)
	if at < 0 || target.PrimaryKey == "" {
		return nil
	}
	if singular(word) != word {
		forms = forms[1:]
	}
	key := target.Name + "." + target.PrimaryKey
	for _, f := range forms {
		var opts []string
		for _, o := range f {
			asked := question[:at] + o + question[at+len(word):]
			if pl := p.planWhole(asked, asOf); pl.Kind == KindMetric && pl.Query != nil && slices.ContainsFunc(pl.Query.Dimensions, func(d semantic.DimRef) bool { return strings.EqualFold(d.Name, key) }) {
				opts = append(opts, asked)
			}
		}
		if len(opts) == len(f) {
			return opts
		}
	}
	return nil
}

// groupedByRoleValue is the word after "by", "per" or "each" that names
// only values of a table and also the link of another table to it
// ("procedures by surgeon": staff.role's surgeon, and procedures'
// surgeon_id), which byRole reads as the link: the value only agrees
// with it (found from outside: refused, "it names a value of staff").
// "" when there is none.
func (p *Planner) groupedByRoleValue(question string) string {
	toks := tokenize(question)
	for i := 1; i < len(toks); i++ {
		switch toks[i-1].s {
		case "by", "per", "each", "every":
		default:
			continue
		}
		w := toks[i].s
		to := p.rolesTo(w)
		ss := p.lex.senses(w)
		if to == "" || len(ss) == 0 {
			continue
		}
		values := true
		for _, s := range ss {
			values = values && s.kind == sValue && strings.EqualFold(s.entity, to)
		}
		if values {
			return w
		}
	}
	return ""
}

// linkNamedAs is the one many-to-one link to table entity, from another
// table, whose name is words ("house manager" of house_manager), where
// the link is the only one between its two tables; nil otherwise. The
// words are then the table reached through that link, as "assignee" is
// (byRole), before a value of the table that reads the same
// (staff.role 'house_manager').
func (p *Planner) linkNamedAs(words, entity string) *semantic.Relationship {
	var hit *semantic.Relationship
	for i := range p.m.Relationships {
		r := &p.m.Relationships[i]
		if r.Cardinality != semantic.ManyToOne || !strings.EqualFold(r.To, entity) || strings.EqualFold(r.From, r.To) ||
			strings.Join(nameWords(r.Name), " ") != words || p.roleOfEntity(r.To) != nil {
			continue
		}
		if hit != nil {
			return nil
		}
		hit = r
	}
	if hit == nil {
		return nil
	}
	for i := range p.m.Relationships {
		r := &p.m.Relationships[i]
		if r != hit && strings.EqualFold(r.From, hit.From) && strings.EqualFold(r.To, hit.To) {
			return nil // two links between the tables: roles of their own
		}
	}
	return hit
}

// rowsOf is the table whose rows a plan lists, or that its first measure
// is over; "" where it has neither.
func (p *Planner) rowsOf(pl *Plan) string {
	switch {
	case pl.Query.Rows != nil:
		return pl.Query.Rows.Entity
	case len(pl.Query.Metrics) > 0:
		return p.metricEntity(pl.Query.Metrics[0], pl.AdHoc)
	}
	return ""
}
