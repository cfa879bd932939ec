package analyst

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// tookPlaceOn reports whether field, a date of e's rows, is the day the
// thing each row records takes place (scheduled_at, appointment_date, a
// closing's closed_on: the past of the thing the table is; a booking's
// booked_for), not the day each was made (ordered_at, created_at,
// booked_on).
func tookPlaceOn(e *semantic.Entity, field string) bool {
	_, col, _ := strings.Cut(field, ".")
	if semantic.DayFor(col) {
		return true
	}
	if madeName(col) {
		return false
	}
	ws := semantic.NameWords(e.Name)
	if len(ws) == 0 {
		return false
	}
	noun := ws[len(ws)-1]
	for _, w := range semantic.NameWords(col) {
		switch w {
		case "scheduled", "appointment", "appt", "visit", "session", "held", "performed", "occurs", "occurred":
			return true
		}
		if len(w) > 4 && strings.HasSuffix(w, "ed") && sameVerb(strings.TrimSuffix(w, "ed"), noun) {
			return true
		}
	}
	return false
}

// sameVerb reports whether the stem of a past form (clos of closed) is
// that of a noun made of the verb (closings, donations, shipments).
func sameVerb(stem, noun string) bool {
	for _, suf := range []string{"ings", "ing", "ions", "ion", "ments", "ment", "s"} {
		if strings.HasSuffix(noun, suf) && len(noun)-len(suf) >= 4 {
			noun = strings.TrimSuffix(noun, suf)
			break
		}
	}
	if len(stem) < 4 || len(noun) < 4 {
		return false
	}
	return strings.HasPrefix(stem, noun) || strings.HasPrefix(noun, stem)
}
