package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// closingNamed reports whether the question names a table whose rows a
// date closes.
func (b *builder) closingNamed() bool {
	for _, t := range b.st.terms {
		for _, c := range t.cands {
			if c.kind == sEntity {
				if e := b.p.entity(c.name); e != nil && len(b.closingDates(e, "")) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// currentRows reads "current" or "still" said of the rows of the one
// table the question names, where that table has one closing date, as
// those whose closing date is empty: "how many current employees",
// "employees hired in 2024 who are still with us" (found from outside:
// the word was read past, 420 for 318, at 1.00).
func (b *builder) currentRows() *Plan {
	text := " " + b.st.text + " "
	word := ""
	for _, w := range []string{"current", "currently", "still", "active"} {
		// "how many employees currently": read past, it counted those
		// who had left too (found from outside).
		if strings.Contains(text, " "+w+" ") && !slices.Contains(b.st.usedWords, w) {
			word = w
		}
	}
	for _, unit := range []string{"day", "week", "month", "quarter", "year", "period", "fiscal", "term", "semester", "season"} {
		if word == "current" && strings.Contains(text, " current "+unit) {
			return nil // "orders in the current month": a period
		}
	}
	if word == "" {
		return nil
	}
	if e, said := b.valueSaidOf(word); said && !(e != nil && len(b.closingDates(e, "")) == 0 && b.closingNamed()) {
		// "current Computer Science students": of the students, where
		// departments never close (found from outside: refused).
		return b.currentOfValue(word, e)
	}
	// The table whose rows the word is said of: of those the question
	// names, the one with a date that closes its rows ("current
	// employees by department": the employees).
	var named []*semantic.Entity
	var ent *semantic.Entity
	var valueWord *term // the word alone, a value of other tables
	for _, t := range b.st.terms {
		if lower(t.it.text) == word && len(t.cands) > 0 && len(only(t.cands, sValue)) == len(t.cands) {
			valueWord = t
		}
	}
	for _, t := range b.st.terms {
		if t == valueWord {
			continue
		}
		if strings.Contains(" "+t.it.text+" ", " "+word+" ") {
			return nil // a name with the word: current_balance
		}
		for _, c := range t.cands {
			if c.kind != sEntity {
				continue
			}
			if e := b.p.entity(c.name); e != nil && !slices.Contains(named, e) {
				named = append(named, e)
				if len(b.closingDates(e, "")) > 0 {
					if ent != nil && valueWord != nil {
						return nil // the value's readings decide
					}
					if ent != nil {
						return b.fail(fmt.Sprintf("quarry cannot tell whether %q is said of the %s or the %s; ask of one of them", word, display(ent.Name), display(e.Name)))
					}
					ent = e
				}
			}
		}
	}
	if valueWord != nil {
		// "how many active employees", where 'active' is a status of
		// accounts, which no link joins to the employees: the employees
		// not gone (found from outside, on a schema of 8,750 tables:
		// refused, as 'active' was an accounts table's, where 14 tables
		// answered). A value of a table joined to them is left to the
		// readings of values ("how many instructors are active", with
		// active enrollments, is asked which).
		if ent == nil {
			return nil
		}
		// A value of a table neither above the rows nor below them
		// (stations, which the members' trips refer to beside them)
		// says nothing of one member: the members not gone (found from
		// outside, on a bike share: "how many active members" refused,
		// 'active' being a station's status). One below ("instructors
		// … active", enrollments of their courses) is asked.
		self, up := lower(ent.Name), b.p.upOf(lower(ent.Name))
		if slices.ContainsFunc(valueWord.cands, func(s sense) bool {
			v := lower(s.entity)
			return v == self || up[v] || b.p.upOf(v)[self] || slices.Contains(b.p.graph[self], v)
		}) {
			return nil
		}
		b.dropTerm(valueWord) // "how many active employees"
	}
	if word == "active" && activeByDoing(text) {
		// "the most active customers", "active in 2025": by how much
		// they did, which no closing date says.
		return b.fail("quarry cannot tell how active is measured here; ask for the rows with the most of something (“customers with the most orders”)")
	}
	if ent == nil {
		if len(named) == 0 || word != "current" && word != "active" {
			// "currently" and "still" are read elsewhere too: a state
			// held now (heldnow.go), or nothing ("did we get, still").
			return nil
		}
		// Read past, the word would count every row, the ended ones too
		// (found from outside: "how many current members" gave all 800,
		// "ignored: current", at 1.00).
		return b.fail(fmt.Sprintf("quarry cannot tell which %s are current: %s has no date that ends its rows (such as ended_on); ask for a state it holds instead (“active %s”) or leave %q out", display(named[0].Name), display(named[0].Name), display(named[0].Name), word))
	}
	if word == "current" && valueWord == nil {
		// "current contracts", of a table whose status says in force
		// ('active'): read as "active contracts", status and dates
		// both, so the two phrasings agree (found from outside:
		// cancelled and expired contracts ending later counted, 10 for
		// 3, at 1.00).
		if v, col := inForceOf(ent); v != "" {
			if read, ok := replaceWord(b.st.raw, word, v); ok {
				if pl := b.p.replan(read, b.st.asOf); pl.Kind == KindMetric || pl.Kind == KindRows {
					pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %q: %s holds the %s in force", word, v, ent.Name+"."+col, display(ent.Name)))
					if pl.Read == "" {
						pl.Read = read
					}
					return pl
				}
			}
		}
	}
	// Every date that closes a row: a student who graduated or withdrew
	// is no current student (found from outside: those who withdrew
	// counted, at 1.00).
	ends := b.closingDates(ent, "")
	for _, end := range ends {
		for _, f := range b.q.Filters {
			if strings.EqualFold(f.Field, ent.Name+"."+end) {
				return nil
			}
		}
	}
	if len(b.st.dates) > 0 && !strings.Contains(text, " still ") {
		// "current employees in 2024": current when?
		return b.fail(fmt.Sprintf("quarry cannot tell which %s were current at a past time: those whose %s came since would have to be counted too; ask for the current ones with no period, or for those hired then", display(ent.Name), strings.Join(ends, " or ")))
	}
	for _, end := range ends {
		field := ent.Name + "." + end
		if len(ends) > 1 && semantic.RunsOut(end) && !b.st.asOf.IsZero() {
			continue // an end set ahead, beside the one that closes: below
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: semantic.OpNull})
		b.und("%q read as the %s rows not closed: filter %s is not set", word, ent.Name, field)
	}
	b.st.usedWords = append(b.st.usedWords, word)
	if !b.st.asOf.IsZero() {
		// "how many active policies": not cancelled, and not run out
		// either, where the rows have an end set ahead (ends_on,
		// expires_on) beside the date that closes them (found from
		// outside: 2,652 expired policies counted as active, at 1.00).
		day := b.st.asOf.Format("2006-01-02")
		for _, c := range ent.Columns {
			closes := slices.Contains(ends, c.Name) && (len(ends) == 1 || !semantic.RunsOut(c.Name))
			if c.Temporal() && c.TimeRole == semantic.TimeRoleEnd && !closes && semantic.RunsOut(c.Name) && !b.p.m.IsRestricted(ent.Name, c.Name) {
				b.q.Filters = append(b.q.Filters, semantic.Filter{Field: ent.Name + "." + c.Name, Op: semantic.OpGe, Values: []any{day}, OrNull: true})
				b.und("%q read as the %s rows not run out: %s.%s on or after %s, or not set", word, ent.Name, ent.Name, c.Name, day)
			}
		}
	}
	return nil
}
