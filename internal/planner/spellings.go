package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A column may hold one value in several spellings that differ only in
// case or in the spaces around them ('Electronics', 'electronics',
// 'ELECTRONICS', 'food '): the rows of that value are in all of them, so
// a filter on the value takes every spelling the column is known to hold
// (found from outside: "how many electronics packages" counted the 1,170
// rows of 'ELECTRONICS' of 3,576, at 1.00). The reading names the
// spellings (narrate), so that the merge is said. A key's spellings are
// different rows ('aB3' and 'Ab3'): they are never merged, and the
// question's own spelling, or else a question back, picks one.

// spellAll gives each filter of a planned query on a value of a text
// column every spelling of that value the column is known to hold: in
// the knowledge's list of its values, or found in the question by a value
// index (PlanValues).
func (p *Planner) spellAll(pl *Plan) {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return
	}
	for i := range pl.Query.Filters {
		f := &pl.Query.Filters[i]
		was := p.heldTitle(*f)
		if !p.spell(f) {
			continue
		}
		// The title was made of the value as the question read it:
		// now it names the value once, for all its spellings.
		if now := p.heldTitle(*f); now != was {
			pl.Title = strings.Replace(pl.Title, was, now, 1)
		}
		pl.Understood = append(pl.Understood, spelledNotes(*f)...)
	}
}

// spelledNotes say which values of a filter, and of the conditions it
// holds, are taken in several spellings.
func spelledNotes(f semantic.Filter) []string {
	var out []string
	for _, w := range f.Where {
		out = append(out, spelledNotes(w)...)
	}
	for _, g := range semantic.SpellingsOf(f.Values) {
		if len(g.Spellings) > 1 {
			out = append(out, fmt.Sprintf("%s %s taken in each of its %d spellings: %s", f.Field, g.Value, len(g.Spellings), strings.Join(g.Spellings, ", ")))
		}
	}
	return out
}

// spell gives a filter, and the conditions it holds, every spelling of
// its values, and reports whether it added any.
func (p *Planner) spell(f *semantic.Filter) bool {
	added := false
	for i := range f.Where {
		added = p.spell(&f.Where[i]) || added
	}
	if f.OnRelated() || f.Against != "" {
		return added
	}
	switch f.Op {
	case semantic.OpEq, semantic.OpNe, semantic.OpIn, semantic.OpNotIn:
	default:
		return added
	}
	if p.caseMatters(f.Field) {
		return added
	}
	known := p.spellingsOf(f.Field)
	if len(known) == 0 {
		return added
	}
	var out []any
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, v := range f.Values {
		s, ok := v.(string)
		if !ok {
			out = append(out, v)
			continue
		}
		n := len(out)
		for _, k := range known {
			if semantic.SameSpelling(k, s) {
				add(k)
			}
		}
		if len(out) == n {
			add(s) // a value the column is not known to hold, as written
		}
	}
	added = added || len(out) > len(f.Values)
	f.Values = out
	return added
}

// spellingsOf are the values a field is known to hold: the knowledge's
// list, then those a value index found in the question.
func (p *Planner) spellingsOf(field string) []string {
	known := p.knownValuesOf(field)
	var extra []string
	for _, ss := range p.lex.extra {
		for _, s := range ss {
			if s.kind == sValue && s.field == field {
				extra = append(extra, s.value)
			}
		}
	}
	if len(extra) == 0 {
		return known
	}
	out := append([]string(nil), known...)
	for _, v := range extra {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// caseMatters reports whether a field is a key: a table's primary key or
// either end of a relationship, whose values name rows, so that two
// spellings are two rows.
func (p *Planner) caseMatters(field string) bool {
	fl, err := p.m.ResolveField(field)
	if err != nil {
		return false
	}
	if fl.Kind == semantic.FieldDimension {
		e, c, ok := simpleRef(fl.Dimension.Expr)
		if !ok {
			return false
		}
		if fl, err = p.m.ResolveField(e + "." + c); err != nil {
			return false
		}
	}
	if fl.Kind != semantic.FieldColumn {
		return false
	}
	if strings.EqualFold(fl.Entity.PrimaryKey, fl.Column.Name) {
		return true
	}
	for _, r := range p.m.Relationships {
		if strings.EqualFold(r.From, fl.Entity.Name) && strings.EqualFold(r.FromColumn, fl.Column.Name) ||
			strings.EqualFold(r.To, fl.Entity.Name) && strings.EqualFold(r.ToColumn, fl.Column.Name) {
			return true
		}
	}
	return false
}

// spelledAs picks, of a value term's meanings, the spelling the question
// writes where its column holds the value in several: the question's own
// spelling where it writes one exactly; else, for a key, whose spellings
// are different rows, it asks which is meant. Any spelling of another
// column stays for the caller, which takes the first.
func (b *builder) spelledAs(t *term) (sense, *Plan) {
	s := t.cands[0]
	var same []sense
	for _, c := range t.cands {
		if c.kind == sValue && c.field == s.field && semantic.SameSpelling(c.value, s.value) {
			same = append(same, c)
		}
	}
	if len(same) < 2 {
		return s, nil
	}
	for _, c := range same {
		if v := strings.TrimSpace(c.value); v != "" && wordAt(b.st.raw, v, 0) >= 0 {
			return c, nil
		}
	}
	if !b.p.caseMatters(s.field) {
		return s, nil
	}
	var opts []string
	for _, c := range same {
		opts = append(opts, fmt.Sprintf("%s = '%s'", s.field, c.value))
	}
	return s, clarify(fmt.Sprintf("%q is a value of %s in %d spellings that differ only in case, each its own row; which do you mean: %s?", t.it.text, s.field, len(same), strings.Join(opts, " or ")), opts...)
}

// spellGroups gives each grouping by a text column that the knowledge
// knows holds one value in several spellings ('Chicago' and 'chicago')
// those spellings as one group: SQL groups them apart, and a ranking cut
// by its limit showed the larger spelling alone as the whole value (found
// from outside: "which city has the most venues" was Chicago with 5 of
// its 6). A key's spellings, and a label grouped with its key, stay
// apart: they are rows of their own.
func (p *Planner) spellGroups(pl *Plan) {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric {
		return
	}
	q := pl.Query
	keyed := map[string]bool{}
	for _, d := range q.Dimensions {
		if e, c, ok := strings.Cut(d.Name, "."); ok {
			if ent := p.entity(e); ent != nil && strings.EqualFold(ent.PrimaryKey, c) {
				keyed[lower(ent.Name)] = true
			}
		}
	}
	for i := range q.Dimensions {
		d := &q.Dimensions[i]
		if d.Grain != "" || len(d.Spellings) > 0 || p.caseMatters(d.Name) {
			continue
		}
		f, err := p.m.ResolveField(d.Name)
		if err != nil {
			continue
		}
		var vals []string
		switch f.Kind {
		case semantic.FieldColumn:
			if keyed[lower(f.Entity.Name)] || f.Column.Type.IsNumeric() || f.Column.Type.IsTemporal() {
				continue
			}
			vals = f.Column.Values
		case semantic.FieldDimension:
			vals = f.Dimension.Values
		}
		anys := make([]any, len(vals))
		for j, v := range vals {
			anys[j] = v
		}
		for _, g := range semantic.SpellingsOf(anys) {
			if len(g.Spellings) > 1 {
				g.Spellings = namedFirst(g.Spellings)
				d.Spellings = append(d.Spellings, g.Spellings)
				pl.Understood = append(pl.Understood, fmt.Sprintf("%s %s grouped as one in each of its %d spellings: %s", d.Name, g.Value, len(g.Spellings), strings.Join(g.Spellings, ", ")))
			}
		}
	}
}

// namedFirst puts first the spelling that names a group of spellings:
// the one written as a name ("Electronics", of ELECTRONICS, Electronics
// and electronics) or a short acronym ("SMB"), else the one in lower
// case, else the first; without spaces around it where one is.
func namedFirst(sp []string) []string {
	score := func(v string) int {
		n := 0
		if v == strings.TrimSpace(v) {
			n += 4
		}
		t := strings.TrimSpace(v)
		switch {
		case t != "" && t[:1] == strings.ToUpper(t[:1]) && t[1:] == strings.ToLower(t[1:]) && t != strings.ToLower(t):
			n += 2
		case len(t) <= 4 && t == strings.ToUpper(t) && t != strings.ToLower(t):
			n += 2 // an acronym: SMB, not smb
		case t == strings.ToLower(t):
			n++
		}
		return n
	}
	best := 0
	for i, v := range sp {
		if score(v) > score(sp[best]) {
			best = i
		}
	}
	out := append([]string{sp[best]}, sp[:best]...)
	return append(out, sp[best+1:]...)
}
