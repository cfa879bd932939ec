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
