package knowledge

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// dateLike reports whether a column holds dates or times: a temporal type,
// or a text column named like one (*_at, *_on, *_dt, *_ts, *date*,
// created, timestamp), as SQLite schemas often declare them.
func dateLike(c quarry.ColumnInfo) bool {
	typ := columnType(c)
	if typ.IsTemporal() {
		return true
	}
	n := strings.ToLower(c.Name)
	named := strings.HasSuffix(n, "_at") || strings.HasSuffix(n, "_on") || strings.HasSuffix(n, "_dt") || strings.HasSuffix(n, "_ts") ||
		strings.Contains(n, "date") || n == "created" || n == "timestamp"
	return named && (typ == quarry.TypeText || typ == quarry.TypeUnknown)
}

// Words that say what a date marks, by role. A word matches a whole word
// of the column name, or its start ("signup" in "signupdate").
var (
	birthWords = []string{"birth", "birthday", "birthdate", "dob", "born", "yob"}
	startWords = []string{"created", "create", "creation", "signup", "signed", "registered", "registration", "joined", "join",
		"opened", "open", "start", "started", "starts", "begin", "began", "hired", "hire", "enrolled", "enrollment", "enrolment",
		"onboarded", "activated", "since", "first", "subscribed", "inserted", "added", "listed", "requested", "filed", "reported", "applied",
		"installed", "commissioned"}
	eventWords = []string{"ordered", "order", "placed", "ship", "dispatch", "purchased", "purchase", "paid", "payment", "booked", "booking",
		"transaction", "occurred", "happened", "event", "sale", "invoiced", "invoice", "visited", "visit", "sent",
		"submitted", "posted", "published", "released", "release", "recorded", "logged", "issued",
		"borrowed", "borrow", "loaned", "lent", "rented", "rental", "checkout", "appointment", "appt", "scheduled",
		"shipped", "dispatched", "delivered", "admitted", "treated", "measured", "reading", "sold", "resulted",
		"departure", "departs", "depart", "attempted",
		// What was done to or for someone on a day (found from outside:
		// procedures.performed_at had no role, and "procedures by
		// surgeon in 2025" was refused for want of "new").
		"performed", "conducted", "administered", "received", "incurred", "billed", "charged",
		// A gathering on its day, whose past form no "-ed" rule finds
		// (found from outside: recitals.held_on had none, and "how many
		// recitals next quarter" was refused for want of "new").
		"held"}
	endWords = []string{"closed", "close", "ended", "end", "ends", "cancelled", "canceled", "cancellation", "cancel",
		"terminated", "termination", "finished", "finish", "completed", "resolved", "expired", "expires", "expiry",
		"expiration", "left", "churned", "deleted", "archived", "departed", "stopped", "stop", "due",
		// A thing taken out of use (found from outside: a vehicle's
		// retired_on read as no end, every retired van counted as had).
		"retired", "decommissioned", "discontinued", "resigned", "lapsed", "deactivated", "unsubscribed",
		// A thing taken out (a meter removed_on), a service restored
		// after an outage: the end of what the row holds.
		"removed", "uninstalled", "restored",
		"returned", "refunded", "settled", "discharged", "graduated", "withdrawn", "withdrew", "withdrawal", "fulfilled",
		// A person gone (found from outside: a student's withdrew_on and
		// a tenant's moved_out_on had no role, so those gone counted as
		// current).
		"vacated", "exited", "offboarded",
		// A life ended (found from outside: a pet's deceased_on had no
		// role, and "how many living pets" counted the dead at 1.00).
		"deceased", "died", "death", "dod",
		// Taken off sale or out of good standing (found from outside: a
		// product's delisted_on had no role, and "products listed right
		// now" counted the delisted).
		"delisted", "unlisted", "suspended", "banned", "blocked", "disabled", "deregistered", "unpublished",
		// A deadline: when a row should end, not when it happened.
		"promised", "deadline", "target", "eta",
		"arrival"}
	// Dates that are neither the start nor the event, and a poor default
	// time axis: changes after the fact.
	laterWords = []string{"updated", "update", "modified", "modify", "changed", "last", "refreshed", "synced"}
	// Decisions and steps taken on a row after it was made, and a row
	// copied in: dates of the row, but not what it records.
	decidedWords = []string{"approved", "rejected", "denied", "declined", "accepted", "reviewed", "verified", "confirmed",
		"validated", "audited", "flagged", "escalated", "assigned", "notified", "reminded", "acknowledged", "imported",
		"loaded", "ingested", "migrated", "exported", "indexed", "seeded", "scored", "graded", "rated", "reassigned"}
)

// timeRole says what a date column marks, from its name: "birth", "start",
// "event", "end", or "" when the name does not say.
func timeRole(name string) string {
	words := nameWords(name)
	for _, w := range words {
		if long := semantic.ShortForm(w); long != "" {
			words = append(words, long) // bkg_dt: "booking"
		}
	}
	has := func(list []string) bool {
		for _, w := range words {
			for _, x := range list {
				if w == x || len(x) >= 5 && strings.HasPrefix(w, x) {
					return true
				}
			}
		}
		return false
	}
	if len(words) > 1 && semantic.PlanWord(words[0]) != "" && slices.ContainsFunc(words[1:], func(w string) bool { return !dateSuffix(w) }) {
		// "requested_delivery_on", "expected_ship_date": the day an
		// event is planned for, neither the row's start nor the event
		// (found from outside: read as the orders' start, so "orders
		// older than 30 days" went by the delivery requested).
		return ""
	}
	for i := 0; i+1 < len(words); i++ {
		// A move in and a move out (moved_in_on, move_out_date): the
		// start and the end of a stay.
		if words[i] == "move" || words[i] == "moved" {
			switch words[i+1] {
			case "in":
				return semantic.TimeRoleStart
			case "out":
				return semantic.TimeRoleEnd
			}
		}
	}
	if semantic.TermDate(name) {
		// "term_dt", "term_date": a termination, as HR systems shorten
		// it (found from outside: employees.term_dt had no role, and
		// "how many loan officers do we have" counted those let go).
		// Not "term_start", the start of a school term.
		return semantic.TimeRoleEnd
	}
	switch {
	case has(birthWords):
		return semantic.TimeRoleBirth
	case has(endWords):
		return semantic.TimeRoleEnd
	case has(startWords):
		return semantic.TimeRoleStart
	case has(eventWords):
		return semantic.TimeRoleEvent
	case has(laterWords) || has(decidedWords):
		return ""
	}
	// A day named by what was done (brewed_on, harvested_at, inspected_on)
	// that no list above knows: the event the row records (found from
	// outside: batches.brewed_on had no role, so created_at dated the
	// batches and "batches by month in 2025" counted them by when they
	// were entered). Not a change after the fact or a decision taken
	// on the row later.
	if len(words) > 1 && len(words[0]) >= 5 && strings.HasSuffix(words[0], "ed") && slices.ContainsFunc(words[1:], dateSuffix) {
		return semantic.TimeRoleEvent
	}
	return ""
}

// tableTimeRole is timeRole of a column of table: an end of another thing
// than the table's rows (semantic.OthersEnd) is none; an end named for the
// event the table's rows record is that event, not an end of theirs
// (refunds.refunded_at, returns.returned_on, cancellations.cancelled_at:
// found from outside, "total refunds last month" refused, as though each
// refund held for a period that refunded_at ended).
func tableTimeRole(table, column string) string {
	role := timeRole(column)
	if i := strings.LastIndex(table, "."); i >= 0 {
		table = table[i+1:] // sales.refunds
	}
	if role == "" {
		// A date named for the thing each row is (donations.donated_at,
		// volunteer_shifts.shift_on): the event the rows record (found
		// from outside: donated_at had no role, and refunded_at made
		// every donation a holding, so "total donations in 2025" was
		// refused).
		if ws := nameWords(table); len(ws) > 0 {
			own := strings.ToLower(singularOf(ws[len(ws)-1]))
			for _, w := range nameWords(column) {
				if len(w) >= 4 && !dateSuffix(w) && semantic.SameStem(w, own) {
					return semantic.TimeRoleEvent
				}
			}
		}
		return role
	}
	if role != semantic.TimeRoleEnd {
		return role
	}
	if semantic.OthersEnd(table, column) {
		// A subscription's trial_ends_on, a customer's
		// licence_expires_on: the end of another thing, which lets no
		// row of the table go (found from outside: subscriptions whose
		// trial was over read as ended).
		return ""
	}
	own := strings.ToLower(singularOf(table))
	for _, w := range nameWords(column) {
		if slices.Contains(endWords, w) && w != own && semantic.SameStem(w, own) {
			return semantic.TimeRoleEvent
		}
	}
	return role
}

// dateSuffix reports whether a word of a date column's name only says it
// is a date, or when (requested_on, created_at, due_date, scheduled_for).
func dateSuffix(w string) bool {
	switch w {
	case "on", "at", "date", "dt", "ts", "time", "timestamp", "day", "for", "by", "to", "of", "until", "from":
		return true
	}
	return false
}

// pickTimeColumn chooses the column that dates a row, by what its name
// says: the date of the event the row records (orders.ordered_at, or a
// date named after the table: orders.order_date), then the start of the
// row (created_at, signup_date, joined), then any other date, then end,
// update and expiry dates; never a date of birth. A declared date or
// timestamp type wins over a text column named like a date; among equals,
// the first column.
func pickTimeColumn(t *quarry.TableInfo) string {
	return pickTimeColumnOf(t, nil)
}

// pickTimeColumnOf is pickTimeColumn among the columns ok admits (every
// one when ok is nil).
func pickTimeColumnOf(t *quarry.TableInfo, ok func(string) bool) string {
	best, bestScore := "", 0
	own := strings.ToLower(singularOf(t.Name))
	for _, c := range t.Columns {
		if !dateLike(c) || ok != nil && !ok(c.Name) {
			continue
		}
		score := 0
		switch tableTimeRole(t.Name, c.Name) {
		case semantic.TimeRoleBirth:
			continue
		case semantic.TimeRoleEvent:
			score = 40
		case semantic.TimeRoleStart:
			score = 30
		case semantic.TimeRoleEnd:
			score = 10
		default:
			score = 20
		}
		words := nameWords(c.Name)
		for _, w := range words {
			if long := semantic.ShortForm(w); long != "" && score >= 20 && (long == own || long == strings.ToLower(t.Name)) {
				score = 50 // in a short form: appointments.appt_dt
			}
			if (w == own || w == strings.ToLower(t.Name)) && score >= 20 {
				score = 50 // the table's own date: orders.order_date
			}
			for _, x := range laterWords {
				if w == x || strings.HasPrefix(w, x) {
					score = 5
				}
			}
		}
		if columnType(c).IsTemporal() {
			score++
		}
		if score > bestScore {
			best, bestScore = c.Name, score
		}
	}
	return best
}

// dateColumns are t's date columns that the column policy admits, when it
// has more than one, or one declared as text, with its other text
// columns (up to textSampled of them): learn samples how well each is
// filled (measuredTimeColumn) and what a text one holds (textDates). A
// text column's values decide whether it holds dates, not its name
// (found from outside: a hotel's check_in and check_out, TEXT with a
// date in every row, were never read as dates).
func dateColumns(t *quarry.TableInfo, admitted func(string) bool) []string {
	var out []string
	text, other := false, 0
	for _, c := range t.Columns {
		if !admitted(c.Name) {
			continue
		}
		switch {
		case dateLike(c) || roleNamedText(c):
			out = append(out, c.Name)
			text = text || !columnType(c).IsTemporal()
		case textual(columnType(c)) && other < textSampled:
			out = append(out, c.Name)
			text, other = true, other+1
		}
	}
	if len(out) < 2 && !text {
		return nil
	}
	return out
}

// textSampled is the number of text columns, other than those named like
// dates, that learn samples in a table for dates.
const textSampled = 16

// roleNamedText reports whether c is a text column named by what a date
// marks but with no date's ending: appointments.scheduled_for, a
// contract's expires (found from outside: scheduled_for, all dates, was
// never read as one). Sampled, textDates types it where every value is
// a date.
func roleNamedText(c quarry.ColumnInfo) bool {
	typ := columnType(c)
	return (typ == quarry.TypeText || typ == quarry.TypeUnknown) && timeRole(c.Name) != "" && timeRole(c.Name) != semantic.TimeRoleBirth
}

// textDates types the date columns of e declared as text whose sampled
// values all read as dates (SQLite schemas often declare them TEXT): a
// timestamp where one holds a time of day, else a date. Without that,
// every reading of a date's role (a period on the date an event names,
// the dates a state may have come about on) passed them over (found from
// outside: listings.sold_at, lab_orders.resulted_at). A sample of fewer
// than 5 filled values, or one value that is no date, keeps the text.
func textDates(e *semantic.Entity, stats map[string]labelStats) {
	for i := range e.Columns {
		c := &e.Columns[i]
		st, ok := stats[c.Name]
		// Every value a date written YYYY-MM-DD: a column that mixes in
		// 02/08/2021 compares as text, not by day (found from outside:
		// "the most recent doctor hired" was 26/11/2021), and stays text.
		if !ok || c.Type != quarry.TypeText || st.dates < 1 || st.iso < 1 || st.filled*float64(st.rows) < 5 {
			continue
		}
		c.Type = quarry.TypeDate
		if st.times > 0 {
			c.Type = quarry.TypeTimestamp
		}
		if c.TimeRole == "" {
			c.TimeRole = tableTimeRole(e.Table, c.Name)
		}
		if e.TimeColumn == "" && (c.TimeRole == semantic.TimeRoleEvent || c.TimeRole == semantic.TimeRoleStart) && st.filled >= undatedShare {
			// The table had no date by name (scheduled_for): this one
			// dates its rows, where it is filled in nearly every one
			// (delivered_time, empty for the deliveries that failed,
			// does not).
			e.TimeColumn = c.Name
		}
	}
	if c := e.Column(e.TimeColumn); c != nil && !c.Type.IsTemporal() {
		// Chosen by its name, but the sample holds no ISO dates ("5
		// May", "02/08/2021"): compared as text with a period's or an
		// as-of day's bounds it keeps or drops rows at random (found on
		// Spider: course.Staring_Date < '2026-07-01' dropped every
		// course, so "the teacher of the math course" was nobody). It
		// dates no row; a date column that reads as one may.
		if st, ok := stats[c.Name]; ok && st.filled*float64(st.rows) >= 5 {
			e.TimeColumn = ""
			for _, d := range e.Columns {
				st, sampled := stats[d.Name]
				if d.Type.IsTemporal() && (d.TimeRole == semantic.TimeRoleEvent || d.TimeRole == semantic.TimeRoleStart) && (!sampled || st.filled >= undatedShare) {
					e.TimeColumn = d.Name
					break
				}
			}
		}
	}
	if e.TimeColumn == "" {
		// A table whose only dates say nothing of what they mark by
		// name (quiz_attempts.attempted, maintenance_jobs.job_day) is
		// dated by the first of them filled in every sampled row (found
		// from outside: no period or as-of day applied to them).
		for _, c := range e.Columns {
			st, ok := stats[c.Name]
			if ok && c.Type.IsTemporal() && c.TimeRole == "" && st.rows >= 5 && st.filled >= 0.99 && !laterName(c.Name) {
				e.TimeColumn = c.Name
				break
			}
		}
	}
	happensOn(e, stats)
	checkInOut(e)
	shortSpans(e, stats)
}

// makingWords name the act of making a row (booking it, ordering it);
// happeningWords the day the thing it records takes place.
var (
	makingWords    = []string{"booked", "booking", "ordered", "placed", "requested", "created", "submitted", "reserved", "made"}
	happeningWords = []string{"scheduled", "appointment", "appt", "visit", "session", "service", "performed", "held", "occurs"}
)

// happensOn dates a table's rows by the day the thing they record takes
// place rather than the day each was made, where it has both: an
// appointment booked in May for June is June's (found from outside:
// appointments, fees and no-shows counted by booked_ts, not
// scheduled_for). A table named by the making itself (bookings) keeps
// it.
func happensOn(e *semantic.Entity, stats map[string]labelStats) {
	own := e.Column(e.TimeColumn)
	if own == nil || !slices.ContainsFunc(nameWords(own.Name), func(w string) bool { return slices.Contains(makingWords, w) }) {
		return
	}
	table := strings.ToLower(singularOf(e.Name))
	for _, w := range nameWords(own.Name) {
		if len(w) >= 4 && strings.HasPrefix(table, w[:4]) {
			return // bookings.booked_at
		}
	}
	for i, c := range e.Columns {
		st, sampled := stats[c.Name]
		// A date with no role whose name says the thing takes place
		// then (scheduled_pickup_at) is that day too (found from
		// outside: rentals dated by created_at, the pickups of July
		// counted in June's bookings).
		dayFor := c.TimeRole == "" && (madeFor(c.Name) || slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return slices.Contains(happeningWords, w) }))
		if c.Name == own.Name || !c.Type.IsTemporal() || c.TimeRole != semantic.TimeRoleEvent && !dayFor || sampled && st.filled < undatedShare {
			continue
		}
		if dayFor || slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return slices.Contains(happeningWords, w) }) {
			e.TimeColumn = c.Name
			e.Columns[i].TimeRole = semantic.TimeRoleEvent
			return
		}
	}
}

// madeFor reports whether a date's name says the day a row was made for
// (reserved_for_at, booked_for, ordered_for): the day the thing takes
// place, not the making (found from outside: reservations' no-shows
// counted by the day each was booked, at 1.00).
func madeFor(name string) bool {
	if semantic.DayFor(name) {
		return true
	}
	ws := nameWords(name)
	for i := 0; i+1 < len(ws); i++ {
		if ws[i+1] == "for" && (ws[i] == "booking" || slices.Contains(happeningWords, ws[i])) {
			return true
		}
	}
	return false
}

// laterName reports whether a date column's name says it marks a change
// after the fact (updated_at, last_synced).
func laterName(name string) bool {
	for _, w := range nameWords(name) {
		for _, x := range laterWords {
			if w == x || strings.HasPrefix(w, x) {
				return true
			}
		}
	}
	return false
}

// measuredTimeColumn is the column that dates t's rows, chosen again from
// a sample of them: a date left empty in some rows cannot date every row
// (found from outside: shipments dated by delivered_dt, empty for the
// shipments never delivered, so "cancelled in 2025" counted none), so
// where the name's choice is filled in under 95% of the sampled rows and
// another date that is not an end, a birth or a later change is filled
// in at least 99% of them, the best named of those wins. Otherwise, or
// without a sample of 20 rows, the choice stands.
func measuredTimeColumn(t *quarry.TableInfo, chosen string, stats map[string]labelStats) string {
	st, ok := stats[chosen]
	if chosen != "" && (!ok || st.filled < undatedShare) && tableTimeRole(t.Name, chosen) == semantic.TimeRoleEnd && !slices.ContainsFunc(t.Columns, func(c quarry.ColumnInfo) bool {
		return c.Name != chosen && dateLike(c)
	}) {
		// The one date of a table, an end most rows lack, or not
		// measured (a part's discontinued_on): no date of its rows, which are no events
		// of ending (found from outside: a garage's job parts dated by
		// their part's discontinuation, "parts used in 2026" none).
		return ""
	}
	if chosen == "" || !ok || st.rows < 20 || st.filled >= 0.95 {
		return chosen
	}
	full := pickTimeColumnOf(t, func(name string) bool {
		s, ok := stats[name]
		switch timeRole(name) {
		case semantic.TimeRoleBirth, semantic.TimeRoleEnd:
			return false
		}
		if laterName(name) {
			return false
		}
		return ok && s.filled >= 0.99
	})
	if full == "" && st.filled < undatedShare {
		// Empty in too many rows to date them all, with no other date
		// that does: the table has none of its own, and a period or an
		// as-of day goes by the row it belongs to (found from outside:
		// deliveries dated by delivered_time, empty for every failed,
		// returned or pending one, left those out of every count).
		return ""
	}
	if full == "" {
		return chosen
	}
	return full
}

// undatedShare is the share of rows a date must be filled in, at least,
// to date a table's rows when no other date is filled in more.
const undatedShare = 0.9

// checkInOut gives a table's check-in and check-out dates, both there,
// the roles of the stay they bound: check_in its start, check_out its
// end (a hotel booking). A check-out alone keeps the event role a
// library's checkout has.
func checkInOut(e *semantic.Entity) {
	in, out := -1, -1
	for i, c := range e.Columns {
		if c.TimeRole == semantic.TimeRoleBirth || !c.Type.IsTemporal() && c.TimeRole == "" {
			continue
		}
		ws := nameWords(c.Name)
		for j := range ws {
			switch {
			case ws[j] == "checkin" || ws[j] == "check" && j+1 < len(ws) && ws[j+1] == "in":
				in = i
			case ws[j] == "checkout" || ws[j] == "check" && j+1 < len(ws) && ws[j+1] == "out":
				out = i
			}
		}
	}
	if in >= 0 && out >= 0 && in != out {
		e.Columns[in].TimeRole, e.Columns[out].TimeRole = semantic.TimeRoleStart, semantic.TimeRoleEnd
	}
}
