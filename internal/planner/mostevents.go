package planner

import (
	"slices"
	"strings"
)

// eventsNamed reports whether a term names, in the plural, the events a
// date column of its rows records: "cancellations" read as "cancelled"
// (bookings.cancelled_at), "refunds" as "refunded". The most of them is
// how many rows have that date, never the latest date.
func eventsNamed(t *term, s sense) bool {
	w := lastWordOf(t.it.text)
	return s.temporal && t.it.via != "" && singular(w) != w && strings.HasSuffix(t.it.via, "ed")
}

// ownDateOverValue reports whether a word that is a value of one table
// and a word of a date of another ("completed": rentals.status and
// maintenance_jobs.completed_at) names the date, where the question names
// the date's table and not the value's.
func (b *builder) ownDateOverValue(t *term, others, vals []sense) bool {
	named := b.namedEntities()
	if slices.ContainsFunc(vals, func(v sense) bool { return named[lower(v.entity)] }) {
		return false
	}
	return slices.ContainsFunc(others, func(s sense) bool { return s.kind == sColumn && s.temporal && named[lower(s.entity)] })
}
