package planner

import "strings"

// eventsNamed reports whether a term names, in the plural, the events a
// date column of its rows records: "cancellations" read as "cancelled"
// (bookings.cancelled_at), "refunds" as "refunded". The most of them is
// how many rows have that date, never the latest date.
func eventsNamed(t *term, s sense) bool {
	w := lastWordOf(t.it.text)
	return s.temporal && t.it.via != "" && singular(w) != w && strings.HasSuffix(t.it.via, "ed")
}
