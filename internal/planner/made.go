package planner

import (
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
