package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// A state word said of the rows of another table than those counted or
// listed: "restaurants with a current manager" keeps the managers who
// have not left, on the related row the restaurants must have, and "how
// many restaurants have a manager" asks whether one who left counts.

// valueSaidOf is the table of the value or column said right after word
// ("a current manager": staff, by its role), where that term names no
// table itself; said is false where no such term follows the word.
func (b *builder) valueSaidOf(word string) (e *semantic.Entity, said bool) {
	text := " " + b.st.text + " "
	for _, t := range b.st.terms {
		if !strings.Contains(text, " "+word+" "+t.it.text+" ") {
			continue
		}
		var of []string
		for _, c := range t.cands {
			if c.kind == sEntity || c.kind == sMetric {
				return nil, false
			}
			if !slices.ContainsFunc(of, func(s string) bool { return strings.EqualFold(s, c.entity) }) {
				of = append(of, c.entity)
			}
		}
		if slices.ContainsFunc(of, b.firstNamed) {
			// "active auto policies": a value of the rows counted or
			// listed, whose reading below keeps; so where other tables
			// hold the value too ("claims still open", 'open' also an
			// invoice's status; found from outside: refused).
			return nil, false
		}
		if len(of) == 1 {
			return b.p.entity(of[0]), true
		}
		return nil, len(of) > 1
	}
	return nil, false
}

// firstNamed reports whether entity is the first table the question
// names: the rows it counts or lists.
func (b *builder) firstNamed(entity string) bool {
	for _, t := range b.st.terms {
		for _, c := range t.cands {
			if c.kind == sEntity {
				return strings.EqualFold(c.name, entity)
			}
		}
	}
	return false
}

// currentOfValue keeps the rows of e, the table of the value said right
// after word, to those not closed ("restaurants with a current manager":
// managers who have not left, found from outside: the restaurants not
// closed, 4 for 2, at 1.00). Where e is a table of many rows per row of
// the subject, existsFilters puts the conditions on the related row.
func (b *builder) currentOfValue(word string, e *semantic.Entity) *Plan {
	if e == nil {
		return b.fail(fmt.Sprintf("quarry cannot tell which rows %q is said of; name the table right after it", word))
	}
	ends := b.closingDates(e, "")
	if len(ends) == 0 {
		return b.fail(fmt.Sprintf("quarry cannot tell which %s are %s: %s has no date that ends its rows (such as ended_on); leave %q out, or ask for a state its rows hold", display(e.Name), word, display(e.Name), word))
	}
	if len(b.st.dates) > 0 && word != "still" {
		return b.fail(fmt.Sprintf("quarry cannot tell which %s were %s at a past time: those whose %s came since would have to be counted too; ask for the %s ones with no period", display(e.Name), word, strings.Join(ends, " or "), word))
	}
	b.st.currentOf, b.st.currentWord = e.Name, word
	b.st.usedWords = append(b.st.usedWords, word)
	return nil
}

// currentOnRelated puts the conditions that keep the rows of the table
// currentOfValue named not closed on the rows of the related table ("restaurants with a current
// manager": a staff row with role manager and left_on not set), or on
// the query where that table is the subject's or one row of each of its
// rows; otherwise the plan fails, never reading the word past.
func (b *builder) currentOnRelated() *Plan {
	of := b.st.currentOf
	if of == "" {
		return nil
	}
	var open []semantic.Filter
	for _, end := range b.closingDates(b.p.entity(of), "") {
		open = append(open, semantic.Filter{Field: of + "." + end, Op: semantic.OpNull})
	}
	n := 0
	for i := range b.q.Filters {
		if f := &b.q.Filters[i]; f.Op == semantic.OpSome && strings.EqualFold(f.Field, of) {
			f.Where = append(f.Where, open...)
			n++
		}
	}
	switch {
	case n > 0:
	case b.subject != "" && (strings.EqualFold(b.subject, of) || b.rank(of, nil) <= 2):
		b.q.Filters = append(b.q.Filters, open...)
	default:
		return b.fail(fmt.Sprintf("quarry cannot tell which rows of %s “current” keeps here; ask for the %s with a condition on %s", display(of), display(b.subject), display(of)))
	}
	for _, f := range open {
		b.und("%q read as the %s rows not closed: %s is not set", b.st.currentWord, of, f.Field)
	}
	return nil
}

// heldRelated asks back, where the subject's rows must have a row of
// entity said in the present ("how many restaurants have a manager") and
// entity's rows end (staff who left: semantic.HoldingEnd), whether a row
// that ended counts: found from outside, the restaurants whose managers
// had all left were counted, at 1.00. Each option is the question again:
// with "current" before the row's word, or "in all". Nil where the
// question says which, names a period, or the rows do not end, and where
// the value is a state of the rows itself ("an active subscription":
// field, its column, a status).
func (b *builder) heldRelated(word, entity, field string) *Plan {
	text := " " + b.st.text + " "
	if len(b.st.dates) > 0 || statusField(field) || allSaid(b.st.text) || strings.EqualFold(b.st.currentOf, entity) || b.subject == "" ||
		!strings.Contains(text, " have ") && !strings.Contains(text, " has ") {
		return nil
	}
	e := b.p.entity(entity)
	if e == nil {
		return nil
	}
	names := passedEnds(heldEnds(b.p.m, e))
	if len(names) == 0 {
		return nil
	}
	current := ""
	for _, at := range []string{" an " + word + " ", " a " + word + " ", " " + word + " "} {
		if i := strings.Index(text, at); i >= 0 {
			lead := " "
			if strings.HasPrefix(at, " a") {
				lead = " a "
			}
			current = strings.TrimSpace(text[:i] + lead + "current " + word + " " + text[i+len(at):])
			break
		}
	}
	if current == "" {
		return nil
	}
	ends := strings.Join(names, " or ")
	return clarify(fmt.Sprintf("%s with any %s on record, those with a %s too, or only those with a current one (no %s)?", display(b.subject), word, ends, ends),
		b.st.text+" in all", current)
}
