package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Columns named after their own table. A column whose name begins or ends
// with its table's name — PetType in Pets, AirportCode in airports,
// charge_amount in Charges, date_of_treatment in Treatments — is what a
// question calls by the rest of its name ("the type of each pet", "the
// code of the airport", "the amount of each charge", "the date of each
// treatment") once the question is about that table. The rest is often a
// word too vague to stand for a column on its own (genericWord), so the
// lexicon holds it as an own sense: a meaning that counts only when
// another word of the question names the column's table — the table
// itself, one of its columns or values, or a measure over it — and that
// is dropped otherwise, leaving the word unknown.

// nameWords are a column or table name's words (semantic.NameWords:
// "PetType": pet, type; "StuID": stu, id), without accents.
func nameWords(s string) []string {
	out := semantic.NameWords(s)
	for i, w := range out {
		out[i] = foldAccents(w)
	}
	return out
}

// tablePhrases are the ways a table's name can begin or end one of its
// columns' names: the name, its singular, and the endings of a compound
// name of two words or more ("template type" of Ref_Template_Types), and
// the name without a last word that only says it is a table ("car" of
// cars_data).
func tablePhrases(name string) [][]string {
	ws := nameWords(name)
	var out [][]string
	addSg := func(p []string) {
		if len(p) == 0 {
			return
		}
		for _, f := range []string{p[len(p)-1], singular(p[len(p)-1]), irregularPlural(p[len(p)-1])} {
			q := append(append([]string(nil), p[:len(p)-1]...), f)
			if !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, q) }) {
				out = append(out, q)
			}
		}
	}
	addSg(ws)
	for k := 1; k+2 <= len(ws); k++ {
		addSg(ws[k:])
	}
	if len(ws) > 1 && tableWord(ws[len(ws)-1]) {
		addSg(ws[:len(ws)-1])
	}
	return out
}

// connective are words that join a column's own word to its table's
// name: "date of treatment".
func connective(w string) bool {
	switch w {
	case "of", "for", "the", "in", "on", "at", "by", "to", "a", "an":
		return true
	}
	return false
}

// ownRest is the rest of a column's name after (or before) its table's
// name: "type" of PetType in Pets, "date" of date_of_treatment in
// Treatments. It returns nil when the column is not named after its table
// or nothing meaningful is left.
func ownRest(table, column string) []string {
	cw := nameWords(column)
	var best []string
	for _, tp := range tablePhrases(table) {
		if len(cw) <= len(tp) {
			continue
		}
		var rest []string
		switch {
		case slices.Equal(cw[:len(tp)], tp):
			rest = cw[len(tp):]
			for len(rest) > 0 && connective(rest[0]) {
				rest = rest[1:]
			}
		case slices.Equal(cw[len(cw)-len(tp):], tp):
			rest = cw[:len(cw)-len(tp)]
			for len(rest) > 0 && connective(rest[len(rest)-1]) {
				rest = rest[:len(rest)-1]
			}
		default:
			continue
		}
		if len(rest) == 0 || !isAlpha(strings.Join(rest, "")) {
			continue
		}
		if best == nil || len(rest) < len(best) {
			best = rest // the longest table phrase matched
		}
	}
	return best
}

// addOwn adds the rest of a column's name after its table's name as an
// own sense of the column (and "ids" for a rest that ends in "id").
func (l *lexicon) addOwn(e *semantic.Entity, c semantic.Column, s sense) {
	rest := ownRest(e.Name, c.Name)
	if rest == nil {
		return
	}
	s.own = true
	if !s.key {
		s.strength = strAlias
	}
	l.addForms(strings.Join(rest, " "), s)
	if rest[len(rest)-1] == "id" {
		l.add(strings.Join(append(rest[:len(rest)-1:len(rest)-1], "ids"), " "), s)
	}
}

// ownContext drops the own senses of each term whose table no other
// word of the question names: a table, a column or value of that table
// alone, or a measure over it. A term left with no meaning is an unknown
// word.
func (b *builder) ownContext() *Plan {
	for i, t := range b.st.terms {
		if !slices.ContainsFunc(t.cands, func(s sense) bool { return s.own }) {
			continue
		}
		if i > 0 && b.absorbs(b.st.terms[i-1], t) {
			continue
		}
		ctx := map[string]bool{}
		for _, u := range b.st.terms {
			if u == t {
				continue
			}
			if e, _ := b.termTable(u); e != "" {
				ctx[lower(e)] = true
			}
		}
		// Where its table is named and no other meaning's table is, the
		// column's own word is as good as its name: "the age of each pet"
		// is pet_age, not the age of students.
		promote := true
		for _, s := range t.cands {
			if !s.own && ctx[lower(s.entity)] && !slices.ContainsFunc(t.cands, func(o sense) bool { return o.own && o.field == s.field }) {
				promote = false
			}
		}
		var keep []sense
		for _, s := range t.cands {
			switch {
			case !s.own:
				keep = append(keep, s)
			case ctx[lower(s.entity)]:
				if promote && !s.key {
					s.strength = strName
				}
				keep = append(keep, s)
			}
		}
		if len(keep) == 0 {
			b.st.unknown = append(b.st.unknown, t.it.text)
			continue
		}
		t.cands = keep
		// "each type of pet": the table after the column only says whose
		// column it is; the column is the group.
		if t.byMode && ownOnly(keep) {
			for _, u := range b.st.terms {
				if e, ent := b.termTable(u); u.pos == t.pos+1 && u.byMode && ent && b.sameTable(keep, e) {
					u.byMode = false
				}
			}
		}
	}
	if reason := b.tableBeforeColumn(); reason != "" {
		return &Plan{Kind: KindUnanswered, Reason: reason, Understood: b.st.understood}
	}
	if len(b.st.unknown) > 0 {
		return b.p.unanswered(b.st, notKnown(b.st))
	}
	return nil
}

// tableBeforeColumn reads "loans by member city" as loans by the
// members' city: a table named right before one of its own columns, both
// after "by", says whose column it is, and the column is the group (found
// from outside: it grouped by each member and the city, one row per
// member); so is a table its rows point at, one each ("revenue by
// account plan": by the plan of each account). A key column keeps both ("by customer id" is the
// customers), and so does "and" between them ("by member and city").
// A column of a third table, which the question names nowhere else and
// the named table does not point at, is refused ("tickets by assignee
// country": employees have no country; customers do, and grouping by the
// employee and the customer's country was an answer to another question).
func (b *builder) tableBeforeColumn() string {
	b.columnOfTable()
	for _, u := range b.st.terms {
		e, table := b.termTable(u)
		if es := only(u.cands, sEntity); e == "" && len(es) == 1 {
			e = es[0].name // "classroom": classrooms, and courses.classroom_id
		}
		if !u.byMode || e == "" || len(u.aggs) > 0 {
			continue
		}
		// "by product country": the word names the table, among other
		// meanings (its name column).
		names := table || slices.ContainsFunc(u.cands, func(s sense) bool { return s.kind == sEntity && strings.EqualFold(s.name, e) })
		if !names {
			continue
		}
		for _, t := range b.st.terms {
			if t.pos != u.pos+1 || !t.byMode || t.conj || len(t.aggs) > 0 || len(t.cands) == 0 {
				continue
			}
			if !b.sameTable(t.cands, e) {
				if r := b.notItsColumn(u, t, e); r != "" {
					return r
				}
			}
			if e2, table2 := b.termTable(t); names && table2 && b.p.upOf(lower(e))[lower(e2)] {
				// "revenue by account plan": the plan each account
				// points at, one per account.
				u.byMode, u.role = false, "context"
				continue
			}
			if names && b.parentColumn(t, e) {
				// "loans by member city": the city of the branch each
				// member belongs to, members having none of their own
				// (found from outside: one group per member and city).
				u.byMode, u.role = false, "context"
				continue
			}
			switch {
			case table && b.p.roleOfEntity(e) != nil:
				// "by origin warehouse city": the city of the role's
				// table, not the table's own nor another role's.
				narrowTo(t, e)
			case b.ownPlainColumn(t, e):
				// "by classroom building": the classrooms' building, not
				// another table's; not their name ("continent name",
				// "dogs's name": the rows themselves) nor their key.
				narrowTo(t, e)
			case !table:
				continue
			}
			if !b.sameTable(t.cands, e) {
				continue
			}
			cols := true
			for _, s := range t.cands {
				cols = cols && (s.kind == sColumn || s.kind == sDim) && !s.key
			}
			if cols {
				u.byMode = false
				if !table {
					// Only the table says whose column: not its key
					// column on the rows measured (courses.classroom_id).
					u.cands, u.role = only(u.cands, sEntity), "context"
				}
			}
		}
	}
	return ""
}

// notItsColumn is the refusal of "<table> <column>" after "by" where the
// column belongs to none of: the table, a table it points at, a table
// named by another word of the question. It returns "" otherwise.
func (b *builder) notItsColumn(u, t *term, e string) string {
	var owners []string
	for _, s := range t.cands {
		if s.own || s.key || (s.kind != sColumn && s.kind != sDim) || s.entity == "" {
			return ""
		}
		o := lower(s.entity)
		if o == lower(e) || b.p.upOf(lower(e))[o] {
			return ""
		}
		if !slices.Contains(owners, s.entity) {
			owners = append(owners, s.entity)
		}
	}
	for _, v := range b.st.terms {
		if v == t || v == u {
			continue
		}
		for _, s := range v.cands {
			te := s.entity
			switch s.kind {
			case sEntity:
				te = s.name
			case sMetric:
				te = b.p.metricEntity(s.name, nil)
			}
			if slices.ContainsFunc(owners, func(o string) bool { return strings.EqualFold(o, te) }) {
				return ""
			}
		}
	}
	if len(owners) == 0 {
		return ""
	}
	return fmt.Sprintf("%s %s: %s has no %s column, and %s is a column of %s, which the question does not name; ask by %s alone, or by the %s of %s",
		u.it.text, t.it.text, display(e), t.it.text, t.it.text, displayJoin(owners), display(e), t.it.text, display(owners[0]))
}

// parentColumn reports whether every meaning of t is a plain column
// (not a key nor a label) of a table e points at, one row each, and e has
// no column t names.
func (b *builder) parentColumn(t *term, e string) bool {
	if len(t.cands) == 0 {
		return false
	}
	for _, s := range t.cands {
		if s.kind != sColumn || s.key || s.own || strings.EqualFold(s.entity, e) || !b.p.upOf(lower(e))[lower(s.entity)] {
			return false
		}
		if pe := b.p.entity(s.entity); pe == nil || strings.EqualFold(s.column, pe.Label) || strings.EqualFold(s.column, pe.PrimaryKey) {
			return false
		}
	}
	return true
}

// narrowTo keeps the meanings of t that belong to table e, when there
// are some.
func narrowTo(t *term, e string) {
	var keep []sense
	for _, s := range t.cands {
		if strings.EqualFold(s.entity, e) {
			keep = append(keep, s)
		}
	}
	if len(keep) > 0 {
		t.cands = keep
	}
}

// termTable is the one table a term's strongest meanings (other than own
// senses) belong to, or "": "pet" names Pets, not Has_Pet nor pet_age;
// and whether those meanings are the table itself.
func (b *builder) termTable(u *term) (string, bool) {
	var named []sense
	for _, s := range u.cands {
		if !s.own {
			named = append(named, s)
		}
	}
	named = strongest(named)
	tables := map[string]string{}
	for _, s := range named {
		e := s.entity
		switch s.kind {
		case sEntity:
			e = s.name
		case sMetric:
			e = b.p.metricEntity(s.name, nil)
		}
		if e == "" {
			return "", false
		}
		tables[lower(e)] = e
	}
	if len(tables) != 1 {
		return "", false
	}
	for _, e := range tables {
		return e, len(only(named, sEntity)) == len(named)
	}
	return "", false
}

// ownOnly reports whether every meaning is an own sense.
func ownOnly(ss []sense) bool {
	for _, s := range ss {
		if !s.own {
			return false
		}
	}
	return len(ss) > 0
}

// sameTable reports whether every sense belongs to table e.
func (b *builder) sameTable(ss []sense, e string) bool {
	for _, s := range ss {
		if !strings.EqualFold(s.entity, e) {
			return false
		}
	}
	return len(ss) > 0
}

// absorbs reads a word after a column as a word of that column's name:
// "the arriving date" is date_arrived, not date_of_treatment and the
// date of arrival. The word takes the column's meaning and plays no part
// of its own.
func (b *builder) absorbs(u, t *term) bool {
	if u.pos != t.pos-1 || !ownOnly(t.cands) || len(u.cands) == 0 || len(t.aggs) > 0 || t.byMode != u.byMode {
		return false
	}
	field := u.cands[0].field
	w := singular(t.it.text)
	for _, s := range u.cands {
		if s.kind != sColumn || s.own || s.field != field || !slices.Contains(nameWords(s.column), w) {
			return false
		}
	}
	t.cands, t.role = u.cands, "context"
	return true
}

// displayJoin is names shown and joined with "and".
func displayJoin(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = display(n)
	}
	return strings.Join(out, " and ")
}

// columnOfTable reads "bookings by country of guest" as bookings by the
// guests' country: a table named right after "<column> of", both after
// "by", says whose column it is, and the column is the group (found from
// outside: it grouped by each guest and the country, one row per guest).
// A key column keeps both.
func (b *builder) columnOfTable() {
	for _, t := range b.st.terms {
		if !t.byMode || len(t.aggs) > 0 || len(t.cands) == 0 {
			continue
		}
		for _, u := range b.st.terms {
			if u.pos != t.pos+1 || !u.byMode || u.conj || len(u.aggs) > 0 {
				continue
			}
			// The word names the table among other meanings ("guest":
			// guests, and bookings.num_guests); the column is that
			// table's ("country" of guests, not of hotels).
			var own []sense
			for _, s := range u.cands {
				if s.kind != sEntity {
					continue
				}
				for _, c := range t.cands {
					if strings.EqualFold(c.entity, s.name) {
						own = append(own, c)
					}
				}
			}
			if len(own) == 0 {
				continue
			}
			of := " " + t.it.text + " of "
			if !strings.Contains(" "+b.st.text+" ", of+u.it.text+" ") && !strings.Contains(" "+b.st.text+" ", of+"the "+u.it.text+" ") && !strings.Contains(" "+b.st.text+" ", of+"each "+u.it.text+" ") {
				continue
			}
			cols := true
			for _, s := range own {
				cols = cols && (s.kind == sColumn || s.kind == sDim) && !s.key
			}
			if cols {
				t.cands = own
				u.byMode, u.role = false, "context"
			}
		}
	}
}

// ownPlainColumn reports whether some of t's meanings are columns of e,
// and none of those is e's label or key.
func (b *builder) ownPlainColumn(t *term, e string) bool {
	ent := b.p.entity(e)
	if ent == nil {
		return false
	}
	found := false
	for _, s := range t.cands {
		if !strings.EqualFold(s.entity, e) {
			continue
		}
		if s.kind != sColumn || s.key || strings.EqualFold(s.column, ent.Label) || strings.EqualFold(s.column, ent.PrimaryKey) {
			return false
		}
		found = true
	}
	return found
}
