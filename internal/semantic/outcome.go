package semantic

import (
	"slices"
	"strings"
)

// OutcomeEnd reports whether a table's end date says how its rows turned
// out rather than that they were let go: a ticket closed or resolved, an
// enrollment completed, a shipment delivered is still a ticket, an
// enrollment, a shipment one has (found from outside: "how many tickets
// do we have" counted the 82 open of 8,000, and "which course has the
// most enrollments" the unfinished ones, at 1.00). An account or a
// membership closed is one no longer had.
func OutcomeEnd(entity, column string) bool {
	for _, w := range NameWords(column) {
		switch w {
		case "resolved", "completed", "complete", "finished", "delivered", "shipped", "fulfilled", "done", "solved",
			"answered", "paid", "returned", "processed", "approved", "responded", "settled", "decided":
			return true
		case "graduated", "graduation":
			// A student who graduated is no longer one (found from
			// outside: "how many students do we have" counted the
			// graduates); the end of a programme's work is its outcome.
			return workRows(entity)
		case "closed", "close":
			// Work is closed when it is done (a ticket, a case, a
			// request); a customer, an account or a store closed is
			// no longer had (found from outside: "how many customers
			// do we have" counted the 117 closed, at 1.00). Read as
			// let go where the rows are not work, so that a count of
			// them asks rather than counts every one.
			return workRows(entity)
		}
	}
	return false
}

// workRows reports whether a table's name says its rows are pieces of
// work or of business done (tickets, cases, requests, orders, deals),
// which are closed when done rather than let go.
func workRows(entity string) bool {
	for _, n := range NameWords(entity) {
		switch strings.TrimSuffix(n, "s") {
		case "ticket", "issue", "case", "request", "incident", "task", "bug", "job", "claim", "complaint", "inquiry", "enquiry",
			"query", "querie", "problem", "defect", "deal", "opportunity", "opportunitie", "lead", "order", "project", "sprint",
			"shift", "session", "conversation", "chat", "thread", "workorder", "work", "appointment", "visit", "booking",
			"reservation", "loan", "invoice", "bill", "period", "batch", "poll", "survey", "auction", "vacancy", "vacancie",
			"requisition", "milestone", "sale", "change", "review", "pr", "pull", "merge", "question", "escalation", "dispute",
			"return", "refund", "repair", "maintenance", "inspection", "audit", "investigation", "grievance", "application", "submission":
			return true
		}
	}
	return false
}

// Outcomes reports whether the rows of e are pieces of work dated by
// how they turned out (a ticket's closed_at, a shipment's delivered_at:
// OutcomeEnd): made, not held, so that a count of them in a period is of
// those made then.
func Outcomes(e *Entity) bool {
	for _, c := range e.Columns {
		if c.Temporal() && !strings.EqualFold(c.Name, e.TimeColumn) && OutcomeEnd(e.Name, c.Name) {
			return true
		}
	}
	return false
}

// HoldingEnd reports whether a table's end date says its rows were let
// go, so that after it the row is no longer had: an employee terminated
// or gone, an account churned or closed, a subscription cancelled or
// ended. A plain end of a span (end_date, ends_on) lets go only rows of
// an agreement (subscriptions, memberships, contracts, leases, accounts);
// of other rows (a time off, a promotion, a campaign) it is how long the
// row lasted, and the row is still one of them (found from outside: "how
// many time off are there" counted the 1 not over, of 557). An outcome
// (OutcomeEnd) lets nothing go.
func HoldingEnd(entity, column string) bool {
	if OutcomeEnd(entity, column) || OthersEnd(entity, column) {
		return false
	}
	if TermDate(column) {
		return true // term_dt: terminated
	}
	generic := false
	for _, w := range NameWords(column) {
		switch w {
		case "terminated", "termination", "left", "leaving", "resigned", "resignation", "departed", "departure", "churned", "churn",
			"cancelled", "canceled", "cancellation", "cancel", "expired", "expiry", "expires", "expiration", "deactivated", "unsubscribed",
			"separated", "separation", "exited", "exit", "offboarded", "quit", "retired", "retirement", "lapsed", "ended", "closed", "close",
			"dropped", "withdrawn", "withdrew", "discharged", "vacated", "moved", "decommissioned", "discontinued", "removed", "uninstalled", "disposed", "scrapped",
			"deceased", "died", "death", "dod", "graduated", "graduation",
			"delisted", "unlisted", "suspended", "banned", "blocked", "disabled", "archived", "deregistered", "unpublished":
			return true
		case "end", "ends", "ending", "until", "to", "thru", "through", "valid", "finish", "stop", "stopped":
			generic = true
		}
	}
	if !generic {
		return false
	}
	for _, n := range NameWords(entity) {
		switch strings.TrimSuffix(n, "s") {
		case "subscription", "membership", "member", "contract", "lease", "policy", "policie", "license", "licence", "agreement", "account",
			"tenancy", "tenancie", "assignment", "employment", "position", "seat", "plan", "enrollment", "enrolment", "registration", "rental":
			return true
		}
	}
	return false
}

// RunsOut reports whether an end date's name says the last day a row
// holds for, set when the row begins (ends_on, end_date, expires_on,
// valid_until, through), not when something closed it or it fell due: a
// lease whose end_date is today is still had today, where a customer
// whose cancelled_at is today is gone (found from outside: "how many
// leases are active right now" left out the one that ended on the day).
func RunsOut(column string) bool {
	ws := NameWords(column)
	if slices.Contains(ws, "due") {
		return false
	}
	return slices.ContainsFunc(ws, func(w string) bool {
		switch w {
		case "ends", "end", "thru", "through", "expires", "expiry", "expired", "expiring", "expiration", "valid", "until":
			return true
		}
		return false
	})
}

// OthersEnd reports whether an end date is named for another thing than
// the table's rows: a customer's licence_expires_on, a traveller's
// passport_expiry, a subscription's trial_ends_on or current_period_end.
// The licence lapses, the trial ends; the customer, the subscription are
// still had (found from outside: "how many customers do we have" left
// out every customer whose driving licence had expired, and "the most
// active subscriptions" every one whose trial was over, at 1.00). A
// membership's membership_expires_on, a plain expires_on or a lease's
// lease_end_date is the row's own; so is valid_until, actual_end_date.
func OthersEnd(entity, column string) bool {
	words := NameWords(column)
	own := NameWords(entity)
	for i, w := range words {
		switch w {
		case "expires", "expiry", "expired", "expiration", "expiring", "valid", "end", "ends", "ending", "until":
		default:
			continue
		}
		for _, before := range words[:i] {
			switch before {
			case "valid", "actual", "planned", "scheduled", "expected", "final", "original", "effective", "contract", "contractual", "term", "agreed":
				continue
			}
			if !slices.ContainsFunc(own, func(o string) bool { return SameStem(o, before) }) {
				return true
			}
		}
		return false
	}
	return false
}

// SameStem reports whether two words share their first five letters, or
// at least four that are all of one of them: member and membership,
// policy and policies, refund and refunded.
func SameStem(a, b string) bool {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 5 || n >= 4 && (n == len(a) || n == len(b))
}

// RetiredEnd reports whether an end date says a thing or a person was
// taken out of use or left (retired_on, decommissioned_at, left_on,
// terminated_on): had between its start and this end even where the
// table is dated by an event such as its purchase.
func RetiredEnd(column string) bool {
	for _, w := range NameWords(column) {
		switch w {
		case "retired", "retirement", "decommissioned", "left", "terminated", "termination", "resigned", "departed", "disposed", "scrapped",
			"removed", "uninstalled", "withdrawn", "withdrew", "deceased", "died", "death", "dod", "graduated", "graduation":
			return true
		}
	}
	return false
}

// InUse reports whether e's rows are things or people in use, taken out
// of use by a date of their own (RetiredEnd: a vehicle's retired_on, a
// machine's decommissioned_at, a person's left_on): no record of events,
// whose deletion would undo what was done with them.
func InUse(e *Entity) bool {
	return e != nil && slices.ContainsFunc(e.Columns, func(c Column) bool { return c.Type.IsTemporal() && RetiredEnd(c.Name) })
}

// DecisionState reports whether a state's word is a decision made on a
// row: approved, rejected, denied, declined, accepted, settled.
func DecisionState(w string) bool {
	w = strings.ToLower(w)
	for _, p := range []string{"approv", "reject", "deni", "declin", "accept", "settl"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// DecisionDate reports whether a date's name says it is when a decision
// was made on its row, whichever way it went: decided_at, decision_date,
// reviewed_on. It is the date of a state DecisionState reads ("leave
// requests approved in May" are those decided in May; found from outside:
// dated by the leave's start, 45 against 36, at 1.00), read alike by the
// planner and the checks.
func DecisionDate(column string) bool {
	for _, w := range NameWords(column) {
		switch w {
		case "decided", "decision", "reviewed", "adjudicated", "ruled", "resolved", "resolution", "processed":
			return true
		}
	}
	return false
}

// PlanWord is the word of a date column's name that makes it a plan, not
// an event: scheduled_arrival, planned_ship_date, due_date, eta,
// requested_delivery_on; "" where there is none. A plan's date is not
// when its event happened (found from outside: "sales orders delivered in
// October" counted by the delivery requested), read alike by the planner
// and the checks.
func PlanWord(column string) string {
	for _, w := range NameWords(column) {
		switch w {
		case "scheduled", "sched", "planned", "plan", "expected", "estimated", "est", "due", "target", "eta", "etd", "promised", "requested", "desired", "preferred":
			return w
		}
	}
	return ""
}

// CalledOff reports whether a status value says a row was let go before
// it went through or held: cancelled, void, declined, withdrawn, written
// off. Read alike by the planner ("unpaid", "overdue", time off in a
// period) and the analyst (the rows to come of a count).
func CalledOff(v string) bool {
	switch strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(strings.TrimSpace(v))) {
	case "cancelled", "canceled", "void", "voided", "declined", "rejected", "denied", "withdrawn", "abandoned", "skipped",
		"uncollectible", "written off", "writtenoff", "write off", "bad debt":
		return true
	}
	return false
}

// NoShow reports whether a status value says a row's thing did not take
// place though it was not called off: the guest or patient never came.
func NoShow(v string) bool {
	switch strings.ReplaceAll(strings.ReplaceAll(Fold(strings.TrimSpace(v)), "-", " "), "_", " ") {
	case "no show", "noshow", "missed", "did not attend", "dna", "absent":
		return true
	}
	return false
}

// AttendanceOutcome reports whether a status value says whether a row's
// thing was attended: a no-show, or attended, present, showed up.
func AttendanceOutcome(v string) bool {
	if NoShow(v) {
		return true
	}
	switch strings.ReplaceAll(strings.ReplaceAll(Fold(strings.TrimSpace(v)), "-", " "), "_", " ") {
	case "attended", "present", "showed", "showed up", "show", "checked in", "checkedin":
		return true
	}
	return false
}

// ValidFrom reports whether a date's name says its rows are in force from
// then: valid_from, effective_from.
func ValidFrom(column string) bool {
	ws := NameWords(column)
	return slices.Contains(ws, "from") && (slices.Contains(ws, "valid") || slices.Contains(ws, "effective"))
}

// StillToCome reports whether a status value says a row's thing is still
// to come: scheduled, planned, upcoming.
func StillToCome(v string) bool {
	switch strings.ReplaceAll(strings.ReplaceAll(Fold(strings.TrimSpace(v)), "-", " "), "_", " ") {
	case "scheduled", "planned", "upcoming", "queued", "future", "not started", "reserved":
		return true
	}
	return false
}

// PaymentRows reports whether a table's name says each row is a payment
// made (payments, rent_payments, transactions, receipts), read alike by
// the planner (money said collected) and the analyst (a count of them
// that takes in failed attempts).
func PaymentRows(entity string) bool {
	ws := NameWords(entity)
	if len(ws) == 0 {
		return false
	}
	switch strings.TrimSuffix(ws[len(ws)-1], "s") {
	case "payment", "receipt", "collection", "remittance", "transaction", "donation", "contribution":
		return true
	}
	return false
}

// InForce reports whether a status value says a row is in force now
// ('active', 'current', 'enrolled'), read alike by the planner (rows had
// now are of such a state, never of 'lapsed' or 'pending') and the
// analyst (rows in force have begun).
func InForce(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "active", "current", "live", "ongoing", "in force", "in_force", "inforce", "valid", "open", "enrolled", "employed", "published", "listed":
		return true
	}
	return false
}
