package planner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// verbRows replans a question refused for a verb it does not know whose
// past form names the one table of the rows it makes ("customers who
// rented", rentals; "students who never enrolled", enrollments;
// "customers who ordered more than 5 times", orders) as having those
// rows: "customers with rentals", "students with no enrollments",
// "customers with more than 5 orders" (found from outside on four
// databases: refused, though the question in those words was answered).
// nil where no word is such a verb, or the question in those words is
// not answered either.
func (p *Planner) verbRows(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || len(pl.Unknown) == 0 {
		return nil
	}
	toks := tokenize(question)
	for i, t := range toks {
		if !strings.HasSuffix(t.s, "ed") || !pastForm(t.s) {
			continue
		}
		if _, known := p.lex.get(t.s); known {
			continue
		}
		e := p.verbTable(t.s)
		if e == "" {
			continue
		}
		start, end, none := t.start, t.end, false
		for j := i - 1; j >= 0 && verbLead[toks[j].s]; j-- {
			none = none || toks[j].s == "never" || toks[j].s == "not"
			start = toks[j].start
		}
		with := "with " + display(e)
		if none {
			with = "with no " + display(e)
		} else if m := verbTimesRE().FindStringSubmatchIndex(question[end:]); m != nil {
			// "more than 5 times": the number of those rows.
			with = "with " + strings.TrimSpace(question[end+m[2]:end+m[3]]) + " " + display(e)
			end += m[1]
		}
		read := strings.Join(strings.Fields(question[:start]+" "+with+" "+question[end:]), " ")
		again := p.planQuestion(read, asOf)
		if again.Kind != KindMetric && again.Kind != KindRows || !p.madeBy(again, e) {
			return nil
		}
		again.readAs(read, fmt.Sprintf("%q read as %q", strings.TrimSpace(question[start:end]), with))
		return again
	}
	return nil
}

// madeBy reports whether the rows pl counts or lists are those whose
// rows of table e refer to them: a customer's rentals, a vehicle's; not
// the post a comment belongs to ("comments posted last month" is no
// question of comments with posts).
func (p *Planner) madeBy(pl *Plan, e string) bool {
	if pl.Query == nil {
		return false
	}
	m := pl.over(p.m)
	var mts []*semantic.Metric
	for _, name := range pl.Query.Metrics {
		if mt := m.Metric(name); mt != nil {
			mts = append(mts, mt)
		}
	}
	subject := subjectOf(m, pl.Query, mts)
	return subject != "" && p.upOf(lower(e))[lower(subject)]
}

// verbLead are the words before a verb that verbRows reads with it: "who
// have never rented", "that did not order".
var verbLead = map[string]bool{"who": true, "that": true, "have": true, "has": true, "had": true, "did": true, "ever": true, "never": true, "not": true}

// verbTimesRE finds, right after a verb, how many times it was done: "more
// than 5 times", "at least 3 times", "over 10 times".
var verbTimesRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s+((?:more than|fewer than|less than|at least|at most|over|under|exactly)\s+\d+)\s+times\b`)
})

// verbTable is the one table whose rows a past form makes, by the verb's
// stem and a noun's ending: rented, rentals; enrolled, enrollments;
// ordered, orders; booked, bookings; shipped, shipments. "" where no
// table, or several, fit.
func (p *Planner) verbTable(w string) string {
	stem := strings.TrimSuffix(w, "ed")
	stems := []string{stem}
	if u := undouble(stem); u != stem {
		stems = append(stems, u) // shipped: ship
	}
	found := ""
	for i := range p.m.Entities {
		name := strings.ToLower(singular(p.m.Entities[i].Name))
		for _, s := range stems {
			rest, ok := strings.CutPrefix(name, s)
			if !ok || !verbNoun[rest] {
				continue
			}
			if found != "" && found != p.m.Entities[i].Name {
				return ""
			}
			found = p.m.Entities[i].Name
		}
	}
	return found
}

// verbNoun are the endings that make a verb's stem the noun of what it
// makes: a rental, an enrollment, a booking, an order, a purchase.
var verbNoun = map[string]bool{"": true, "e": true, "al": true, "ment": true, "ing": true, "ion": true, "s": true}

// stateNounRows replans a question refused for a noun it does not know
// that names a status value's event ("cancellations", status
// 'cancelled'; "refunds", 'refunded'; "deliveries", 'delivered') as the
// rows in that state: "cancellations by clinic this year" as "cancelled
// appointments by clinic this year" (found from outside: "cancellations",
// "cancellation rate" not understood on three databases). Only where one
// status value of one table has that stem; nil otherwise, or where the
// question in those words is not answered either.
func (p *Planner) stateNounRows(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || len(pl.Unknown) == 0 {
		return nil
	}
	for _, t := range tokenize(question) {
		if !slices.Contains(pl.Unknown, t.s) {
			continue
		}
		stems := nounStems(t.s)
		if len(stems) == 0 {
			continue
		}
		entity, value := "", ""
		for i := range p.m.Entities {
			e := &p.m.Entities[i]
			for _, c := range e.Columns {
				if !semantic.StatusName(c.Name) {
					continue
				}
				for _, v := range c.Values {
					if !slices.Contains(stems, pastStem(strings.ToLower(v))) {
						continue
					}
					if entity != "" && (entity != e.Name || value != v) {
						return nil // two states of that name: which is meant?
					}
					entity, value = e.Name, v
				}
			}
		}
		if entity == "" {
			continue
		}
		read := question[:t.start] + value + " " + display(entity) + question[t.end:]
		again := p.planQuestion(read, asOf)
		if again.Kind != KindMetric && again.Kind != KindRows {
			return nil
		}
		again.readAs(read, fmt.Sprintf("%q read as the %s whose %s is %q", t.s, display(entity), "status", value))
		return again
	}
	return nil
}

// nounStems are the stems a noun of an event may have: the verb it is
// made from ("cancellations", "cancellation": cancel; "refunds",
// "refund": refund; "deliveries": deliver, delivery; "shipments": ship).
func nounStems(w string) []string {
	out := []string{w} // "refund"
	for _, suf := range []string{"ations", "ation", "ments", "ment", "ions", "ion", "ings", "ing", "ies", "als", "s"} {
		stem, ok := strings.CutSuffix(w, suf)
		if !ok || len(stem) < 3 {
			continue
		}
		if suf == "ies" {
			out = append(out, stem, stem+"y")
			continue
		}
		out = append(out, undouble(stem))
		break
	}
	return out
}

// pastStem is a past participle's stem: "cancelled" cancel, "refunded"
// refund, "delivered" deliver; "" for a word that is none.
func pastStem(v string) string {
	stem, ok := strings.CutSuffix(v, "ed")
	if !ok || len(stem) < 3 || strings.ContainsAny(stem, " _-") {
		return ""
	}
	return undouble(stem)
}

// undouble drops the last letter of a stem that ends in a doubled one
// (cancell, shipp).
func undouble(s string) string {
	if n := len(s); n > 2 && s[n-1] == s[n-2] {
		return s[:n-1]
	}
	return s
}
