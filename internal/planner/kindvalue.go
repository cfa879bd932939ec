package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A kind of row named by a value in the plural: "how many accountants",
// "number of support agents in Finance", where a job title (or a role,
// a type, a kind …) of the rows holds the value Accountant. The plural
// names rows of that kind, so the question counts the rows of the
// value's table that have it ("how many Accountant employees"). Only a
// value of a column that says what kind of thing a row is (its name or a
// synonym is a word such as title, role, position, type or kind), written
// in the plural where the value is singular, right after "how many" or
// "number of": a category (Books), a place or a status in the plural is
// no kind of row ("how many stores" is not the orders of the store
// channel), and stays refused.

// kindColumnWord names a column that says what kind of thing a row is.
func kindColumnWord(w string) bool {
	switch w {
	case "title", "role", "position", "job", "occupation", "profession", "rank", "type", "kind", "species", "breed":
		return true
	}
	return false
}

// countLead reports whether a and b are the words before what a
// question counts: "how many", "number of", "count of".
func countLead(a, b string) bool {
	return a == "how" && b == "many" || a == "number" && b == "of" || a == "count" && b == "of"
}

// kindCount replans a count of a plural value of a kind column as a
// count of the rows that have that value; nil when the question has no
// such count.
func (p *Planner) kindCount(question string, asOf time.Time) *Plan {
	toks := tokenize(question)
	at := -1
	for i := 0; i+2 < len(toks); i++ {
		if countLead(toks[i].s, toks[i+1].s) {
			at = i + 2
			break
		}
	}
	if at < 0 {
		return nil
	}
	for n := min(3, len(toks)-at); n >= 1; n-- {
		ws := wordsOf(toks[at : at+n])
		last := ws[n-1]
		one := singular(last)
		if one == last {
			continue
		}
		ws[n-1] = one
		ss, ok := p.lex.get(strings.Join(ws, " "))
		if !ok || len(ss) == 0 {
			continue
		}
		vals := only(ss, sValue)
		if len(vals) == 0 || len(vals) < len(ss) && !onlyAliases(slices.DeleteFunc(slices.Clone(ss), func(s sense) bool { return s.kind == sValue })) {
			return nil // "cats" is the species Cat before a word of treatment_cat
		}
		v := vals[0]
		for _, s := range vals {
			if s.field != v.field || !strings.EqualFold(s.value, v.value) {
				return nil // spellings of one value differ only in case
			}
		}
		vw := words(v.value)
		ent := p.entity(v.entity)
		if len(vw) == 0 || vw[len(vw)-1] != one || ent == nil {
			return nil
		}
		by := p.lookupOf(ent)
		if !p.kindColumn(v.entity, v.column) && (by == nil || !strings.EqualFold(p.label(ent), v.column)) {
			// The name of a table of kinds (boat_types.name) is a kind
			// too (found from outside: "how many sailboats" refused,
			// with a hint that counted the one Sailboat type).
			return nil
		}
		if by != nil {
			// "how many trucks", Truck a name in vehicle_types: the
			// vehicles of that type, not the one type row (found from
			// outside: 1, at 1.00).
			ent = by
		} else if p.referredTo(ent) && strings.EqualFold(p.label(ent), v.column) {
			return nil // a name other tables' rows take: whose rows are counted?
		}
		read := question[:toks[at].start] + v.value + " " + strings.ToLower(display(ent.Name)) + question[toks[at+n-1].end:]
		if ew := words(ent.Name); by != nil && singular(ew[len(ew)-1]) == one {
			// "how many private lessons": Private lesson, a lesson type,
			// ends in the lessons' own noun; "Private lesson lessons"
			// reads as two things, "lessons with lesson type Private
			// lesson" as one (found from outside: refused as a value).
			kw := words(v.entity)
			kw[len(kw)-1] = singular(kw[len(kw)-1])
			read = question[:toks[at].start] + strings.ToLower(display(ent.Name)) + " with " + strings.Join(kw, " ") + " " + v.value + question[toks[at+n-1].end:]
		}
		pl := p.planWhole(read, asOf)
		if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 || !strings.EqualFold(p.metricEntity(pl.Query.Metrics[0], pl.AdHoc), ent.Name) {
			return nil
		}
		filtered := false
		for _, f := range pl.Query.Filters {
			filtered = filtered || slices.ContainsFunc(f.Values, func(x any) bool { return fmt.Sprint(x) == v.value })
		}
		if !filtered {
			return nil
		}
		whose := v.column
		if by != nil {
			whose = singular(display(v.entity)) // "boats whose boat type is Sailboat"
		}
		note := fmt.Sprintf("%q read as %s whose %s is %s", join(toks[at:at+n]), display(ent.Name), whose, v.value)
		pl.readAs(read, note)
		return pl
	}
	return nil
}

// kindColumn reports whether a column says what kind of thing its row
// is: a word of its name or of a synonym is a kind word.
func (p *Planner) kindColumn(entity, column string) bool {
	e := p.entity(entity)
	if e == nil {
		return false
	}
	c := e.Column(column)
	if c == nil || c.Type.IsNumeric() || c.Type.IsTemporal() {
		return false
	}
	for _, n := range append([]string{c.Name}, c.Synonyms...) {
		for _, w := range nameWords(n) {
			if kindColumnWord(w) {
				return true
			}
		}
	}
	return false
}

// rankValueRows reads "top 3 support agents by csat", a ranking of a
// value said in the plural with nothing else to rank, as a ranking of the
// rows of the table that holds the value, among those that hold it: the
// employees whose title is Support Agent, by their tickets' satisfaction
// (found from outside: read as every employee a ticket is assigned to,
// engineers first). Where the value's one word also names the measured
// rows' link to that table ("top 3 brewers by batches": staff.role's
// brewer, and batches.brewer_id), the two readings differ by the rows
// whose link names someone who does not hold the value, and it asks
// which is meant (found from outside: a packer recorded as the brewer of
// 51 batches left out, at 1.00).
func (b *builder) rankValueRows(grains int) *Plan {
	st := b.st
	if st.order == "" || b.rows || len(b.groups) > 0 || grains > 0 || len(b.q.Metrics) != 1 {
		return nil
	}
	var hit *semantic.Entity
	var said *term
	for _, t := range st.terms {
		if t.role != "value" || len(t.cands) == 0 || t.cands[0].kind != sValue {
			continue
		}
		ws := strings.Fields(lower(t.it.text))
		if len(ws) == 0 || singular(ws[len(ws)-1]) == ws[len(ws)-1] && !t.rowsQ {
			// In the plural, or right after "which" ("which fundraiser
			// has the most pledges": found from outside, refused as
			// nothing to rank).
			continue
		}
		e := b.p.entity(t.cands[0].entity)
		if e == nil || e.PrimaryKey == "" || hit != nil && hit != e {
			return nil
		}
		hit, said = e, t
	}
	measured := b.p.metricEntity(b.q.Metrics[0], b.adhoc)
	if hit == nil || strings.EqualFold(hit.Name, measured) {
		return nil
	}
	if pl := b.valueOrLink(said, hit, measured); pl != nil {
		return pl
	}
	b.groups = append(b.groups, hit.Name+"."+hit.PrimaryKey)
	if l := b.p.label(hit); l != "" {
		b.groups = append(b.groups, hit.Name+"."+l)
	}
	b.und("group by %s", hit.Name)
	return nil
}

// valueOrLink asks, for a ranking of the rows of target that hold the
// value t says, whether the rows named by the measured table's link of
// that word are meant instead: t is one word, it names the one link of
// measured to target by its role (roleOf), and the question says no
// other condition on target. The options are the question asked each
// way: target ranked through the link, or only its rows that hold the
// value.
func (b *builder) valueOrLink(t *term, target *semantic.Entity, measured string) *Plan {
	ws := strings.Fields(lower(t.it.text))
	if len(ws) != 1 || len(t.cands) == 0 {
		return nil
	}
	r := b.p.roleFrom(ws[0], measured)
	if r == nil || !strings.EqualFold(r.To, target.Name) {
		return nil
	}
	s := t.cands[0]
	if b.p.m.IsRestricted(s.entity, s.column) {
		return nil
	}
	for _, o := range b.st.terms {
		if o != t && o.role == "value" && len(o.cands) > 0 && strings.EqualFold(o.cands[0].entity, target.Name) {
			return nil // the question says which of them otherwise too
		}
	}
	things, role := lower(display(target.Name)), singular(ws[0])
	what := fmt.Sprintf("By %q do you mean each %s named as the %s of %s, or only the %s whose %s is %s?",
		t.it.text, singular(things), role, lower(display(measured)), things, display(s.column), s.value)
	whose := things + " whose " + strings.Join(nameWords(s.column), " ") + " is " + s.value
	opts := b.p.askedEachWay(b.st.raw, b.st.asOf, ws[0], target, [][]string{{things, whose}, {things, whose}})
	if len(opts) < 2 {
		// A reading quarry cannot ask again is no choice to offer.
		return b.fail(strings.TrimSuffix(what, "?") + "; the two give different rows, and quarry does not pick one")
	}
	return clarify(what, opts...)
}

// lookupOf is the one table whose rows take a name from e, a table of
// kinds (vehicle_types, named by type_name): the rows a plural of one of
// its names counts. nil when e is no such table, or more than one table
// refers to it.
func (p *Planner) lookupOf(e *semantic.Entity) *semantic.Entity {
	kinds := false
	for _, w := range nameWords(e.Name) {
		// "species" is its own singular (found from outside: "how many
		// dogs" refused, Dog a name in species).
		kinds = kinds || kindColumnWord(w) || kindColumnWord(singular(w)) || singular(w) == "category" || singular(w) == "class"
	}
	if !kinds {
		return nil
	}
	var by *semantic.Entity
	for _, r := range p.m.Relationships {
		if !strings.EqualFold(r.To, e.Name) || strings.EqualFold(r.From, e.Name) {
			continue
		}
		f := p.entity(r.From)
		if f == nil || by != nil && by != f {
			return nil
		}
		by = f
	}
	return by
}

// referredTo reports whether another table's rows refer to e's.
func (p *Planner) referredTo(e *semantic.Entity) bool {
	for _, r := range p.m.Relationships {
		if strings.EqualFold(r.To, e.Name) && !strings.EqualFold(r.From, e.Name) {
			return true
		}
	}
	return false
}
