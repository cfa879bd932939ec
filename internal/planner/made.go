package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// madeVerbs say a row was made: "leave requests made in 2025",
// "tickets raised last month".
var madeVerbs = map[string]bool{"made": true, "submitted": true, "filed": true, "raised": true, "logged": true, "lodged": true, "created": true, "requested": true}

// madeWords are the words of a date column's name that say it is the day
// its row was made (requested_at, submitted_on, created_at).
var madeWords = []string{"requested", "request", "submitted", "submission", "filed", "raised", "logged", "created", "creation", "made"}

// madeDate is the date its row was made on, of the subject's table,
// where the question says its rows were made ("made", "submitted", …)
// and the table is dated by another date: "leave requests made in 2025"
// are those requested then, not those whose leave starts then (found
// from outside, at 1.00). "" where the question says no such verb, or
// the table has no such date, or more than one.
func (b *builder) madeDate() string {
	said := false
	for _, t := range tokenize(b.st.raw) {
		said = said || madeVerbs[t.s]
	}
	e := b.p.m.Entity(b.subject)
	if !said || e == nil {
		return ""
	}
	found := ""
	for _, c := range e.Columns {
		if !c.Temporal() || b.p.m.IsRestricted(e.Name, c.Name) || !slices.ContainsFunc(semantic.NameWords(c.Name), func(w string) bool { return slices.Contains(madeWords, w) }) {
			continue
		}
		if found != "" {
			return ""
		}
		found = c.Name
	}
	if found == "" || strings.EqualFold(found, e.TimeColumn) {
		return ""
	}
	return e.Name + "." + found
}

// ownEventSaid reports whether the verb of another table's date (term i,
// "bought" of vehicles.bought_on) is said right after the measured rows
// ("fuel bought this year"), of rows dated by an event of their own
// (fuel_purchases.purchased_on): the verb says what they record, and the
// period is on their own date, which a note says (found from outside:
// the fuel of the vehicles bought this year, 3,319.60 gallons for
// 46,396.10, at 1.00). "Fuel for vehicles bought this year" is still the
// vehicles' date.
func (b *builder) ownEventSaid(i int, t *term) bool {
	word := lower(t.it.text)
	if i == 0 || t.afterStop || strings.Contains(word, " ") || !pastForm(word) || strings.EqualFold(t.cands[0].entity, b.subject) {
		return false
	}
	prev := b.st.terms[i-1]
	if prev.cands[0].kind != sEntity || !strings.EqualFold(prev.cands[0].name, b.subject) {
		return false
	}
	e := b.p.m.Entity(b.subject)
	if e == nil {
		return false
	}
	own := e.Column(e.TimeColumn)
	if own == nil || own.TimeRole != semantic.TimeRoleEvent {
		return false
	}
	b.notes = append(b.notes, fmt.Sprintf("%q read as what the %s record, dated by %s.%s, not %s", word, display(e.Name), e.Name, own.Name, t.cands[0].field))
	return true
}

// attendedOn is semantic's AttendedOn of the subject's rows under the
// query's conditions ("how many no-shows this year": the day of the
// event each shift is for, not its sign-up; found from outside, 28 for
// 29 at 1.00).
func (b *builder) attendedOn() string {
	return b.p.m.AttendedOn(b.subject, b.q.Filters)
}
