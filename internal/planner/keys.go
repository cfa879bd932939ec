package planner

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// contextKey chooses among key columns where the question leaves one
// sensible reading: of the two ends of one relationship, which hold the
// same values, the subject's own ("the document id with paragraph text
// 'Brazil'": Paragraphs.Document_ID); for a bare "id" or "ids", the key named
// after a table the question names ("the id of the document with the
// most paragraphs": Document_ID, not Paragraph_ID), or else the primary
// key of the rows listed ("the ids and names of all documents":
// Document_ID, not the Template_ID each document refers to). It returns
// nothing when that leaves more than one column.
func (b *builder) contextKey(t *term, keep []sense, named map[string]bool) []sense {
	for _, s := range keep {
		if !s.key {
			return nil
		}
	}
	if s, ok := b.joinedEnds(keep); ok {
		return []sense{s}
	}
	ws := strings.Fields(t.it.text)
	if len(ws) != 1 || ws[0] != "id" && ws[0] != "ids" {
		return nil
	}
	one := func(ss []sense) []sense {
		fields := map[string]bool{}
		for _, s := range ss {
			fields[s.field] = true
		}
		if len(fields) == 1 {
			return ss
		}
		return nil
	}
	var byName []sense
	for _, s := range keep {
		cw := words(s.column)
		if len(cw) < 2 || cw[len(cw)-1] != "id" {
			continue
		}
		owner := strings.Join(cw[:len(cw)-1], " ")
		for e := range named {
			if ew := words(e); strings.Join(ew, " ") == owner || singular(strings.Join(ew, " ")) == owner {
				byName = append(byName, s)
				break
			}
		}
	}
	if got := one(byName); got != nil {
		return got
	}
	var own []sense
	for _, s := range keep {
		if e := b.p.entity(s.entity); e != nil && strings.EqualFold(e.Name, b.subject) && strings.EqualFold(e.PrimaryKey, s.column) {
			own = append(own, s)
		}
	}
	return one(own)
}

// joinedEnds reports, when the senses are the two ends of one
// relationship (a foreign key and the key it refers to), the nearer end:
// the one on the subject, or else the foreign key on the way from the
// subject to the row it refers to. Both hold the same values.
func (b *builder) joinedEnds(keep []sense) (sense, bool) {
	fields := map[string]sense{}
	for _, s := range keep {
		fields[lower(s.entity+"."+s.column)] = s
	}
	if len(fields) != 2 {
		return sense{}, false
	}
	for _, r := range b.p.m.Relationships {
		from, okf := fields[lower(r.From+"."+r.FromColumn)]
		to, okt := fields[lower(r.To+"."+r.ToColumn)]
		if !okf || !okt {
			continue
		}
		switch {
		case strings.EqualFold(from.entity, b.subject):
			return from, true
		case strings.EqualFold(to.entity, b.subject):
			return to, true
		case b.subject != "" && b.p.upOf(lower(b.subject))[lower(from.entity)] && r.Cardinality != semantic.OneToMany && r.Cardinality != semantic.ManyToMany:
			return from, true // the foreign key, on the way to the row it refers to
		case b.subject == "":
			// "the contestant numbers and names": the end whose table
			// the question's other columns are of, and the other's not.
			own := b.othersTables(keep)
			switch {
			case own[lower(to.entity)] && !own[lower(from.entity)]:
				return to, true
			case own[lower(from.entity)] && !own[lower(to.entity)] && !b.valuesJoinedByAnd():
				// Not with values joined by "and": "the document id
				// with paragraph text 'Brazil' and 'Ireland'" may ask
				// for the documents with both, which a list of the
				// paragraphs' references does not say.
				return from, true
			}
		}
	}
	return sense{}, false
}

// othersTables are the tables, lower-case, of the question's other column
// and value terms that name one table alone: those whose senses are not
// among keep and all of one table.
func (b *builder) othersTables(keep []sense) map[string]bool {
	out := map[string]bool{}
	for _, t := range b.st.terms {
		if len(t.cands) == 0 || slices.ContainsFunc(t.cands, func(c sense) bool { return slices.ContainsFunc(keep, func(k sense) bool { return k.field == c.field }) }) {
			continue
		}
		e := ""
		for _, c := range t.cands {
			if c.kind != sColumn && c.kind != sValue || e != "" && lower(c.entity) != e {
				e = ""
				break
			}
			e = lower(c.entity)
		}
		if e != "" {
			out[e] = true
		}
	}
	return out
}

// namesOther reports whether the question names a table other than e: a
// verb between two tables ("which customer placed the most orders").
func (b *builder) namesOther(e string) bool {
	for n := range b.namedEntities() {
		if !strings.EqualFold(n, e) {
			return true
		}
	}
	return false
}

// valuesJoinedByAnd reports whether the question joins two values by
// "and".
func (b *builder) valuesJoinedByAnd() bool {
	return slices.ContainsFunc(b.st.terms, func(t *term) bool { return t.conjAnd && t.cands[0].kind == sValue })
}
