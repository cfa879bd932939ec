package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// How money said received is read: "rent collected last month" is what
// was paid toward the leases then, not the rent of the leases begun then.

// collected replans a total said received ("total rent collected last
// month", "how much rent did we receive in May") of an amount that a
// table's rows charge rather than move (a lease's rent_cents), as the
// total of the one table of payments toward those rows, in its own time
// (found from outside: the rent of the leases begun last month, at
// 0.85). Where no one such table is and the rows are agreements dated by
// their start, it refuses: their amount is what each charges, and when it
// was paid nothing says. Nil where the question says nothing received, or
// the amount is one its own rows move (payments, invoices, orders).
func (p *Planner) collected(question string, asOf time.Time, pl *Plan) *Plan {
	rows := pl.Kind == KindRows && pl.Query != nil && pl.Query.Rows != nil
	if (pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1) && !rows {
		return nil
	}
	toks := tokenize(question)
	at := -1
	for i, t := range toks {
		if receiptWord(t.s) {
			at = i
			break
		}
	}
	if at < 1 {
		return nil
	}
	var mt *semantic.Metric
	measured := "" // the table of the rows counted, summed or listed
	if rows {
		measured = pl.Query.Rows.Entity
	} else if mt = pl.over(p.m).Metric(pl.Query.Metrics[0]); mt == nil {
		return nil
	} else if mt.Derived == "" {
		measured = mt.Entity
	}
	if e, verb := p.entity(measured), toks[at].s; e != nil && semantic.PaymentRows(e.Name) && (verb == "collected" || verb == "received") {
		// "total payments received in 2025": the payments that went
		// through, not the failed ones too (found from outside: 656,162
		// for 577,956, the word passed over).
		if done, ok := p.completedState(e.Name); ok && !slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, done.Field) }) {
			q := *pl.Query
			q.Filters = append(slices.Clone(q.Filters), done)
			out := *pl
			out.Query = &q
			out.Understood = append(slices.Clone(pl.Understood), fmt.Sprintf("%q read as the %s that went through: %s = %v", verb, display(e.Name), done.Field, done.Values[0]))
			return &out
		}
	}
	if rows || mt.Derived != "" || !exprStarts(mt.Expr, "SUM(") || len(pl.Query.Compare) > 0 {
		// (Payments received in two periods compared keep to those that
		// went through, above: found from outside, May against May
		// counted failed and refunded payments.)
		return nil
	}
	entity, column, ok := simpleRef(strings.TrimSuffix(strings.TrimSpace(mt.Expr)[len("SUM("):], ")"))
	e := p.entity(entity)
	if verb := toks[at].s; ok && e != nil && !semantic.PaymentRows(e.Name) && (verb == "collected" || verb == "received") && paidDate(e) != "" && !strings.EqualFold(e.TimeColumn, paidDate(e)) && !p.paymentsToward(e.Name) {
		// "total fines collected this year": the fines paid this year,
		// by the day each was paid (found from outside: every fine
		// assessed this year added up, unpaid and waived ones too, the
		// word passed over).
		if read, ok := replaceWord(question, verb, "paid"); ok {
			if paid := p.replan(read, asOf); paid.Kind == KindMetric && paid.Query != nil && paid.Query.TimeRange != nil == (pl.Query.TimeRange != nil) {
				paid.Understood = append(paid.Understood, fmt.Sprintf("%q read as %q: the %s have a date each was paid on (%s)", verb, "paid", display(e.Name), paidDate(e)))
				if paid.Read == "" {
					paid.Read = read
				}
				return paid
			}
		}
	}
	if !ok || e == nil || recordsMoney(e.Name) || semantic.PaymentRows(e.Name) {
		return nil
	}
	var pays []*semantic.Entity
	for _, r := range p.m.Relationships {
		if !strings.EqualFold(r.To, e.Name) || r.Cardinality != semantic.ManyToOne || !semantic.PaymentRows(r.From) {
			continue
		}
		if pe := p.entity(r.From); pe != nil && pe.TimeColumn != "" && p.oneAmount(pe.Name) != "" {
			pays = append(pays, pe)
		}
	}
	verb := toks[at].s
	if len(pays) != 1 {
		if tc := e.Column(e.TimeColumn); tc == nil || tc.TimeRole != semantic.TimeRoleStart {
			return nil
		}
		return p.unanswered(&state{}, fmt.Sprintf("%q asks for money received, and %s.%s is what each of the %s charges, not a payment made on a day; ask for the total of a table of payments, or for the %s begun in the period",
			verb, e.Name, column, display(e.Name), display(e.Name)))
	}
	// The words that name the amount, before the verb ("total rent"),
	// with the helping words between them passed over ("how much rent
	// did we collect").
	end := at - 1
	for end >= 0 && receiptFiller(toks[end].s) {
		end--
	}
	start := end + 1
	for start > 0 && p.namesField(toks[start-1].s, entity+"."+column) {
		start--
	}
	if start > end {
		return nil
	}
	if start > 0 && toks[start-1].s == "total" {
		start--
	}
	pay := pays[0]
	said := totalWords(p.oneAmount(pay.Name)) + " of " + display(pay.Name)
	read := question[:toks[start].start] + said + question[toks[end].end:]
	again := p.planQuestion(read, asOf)
	if again.Kind != KindMetric {
		return nil
	}
	again.Ignored = slices.DeleteFunc(again.Ignored, receiptWord)
	again.readAs(read, fmt.Sprintf("%q read as the %s: what was paid toward the %s then, not what they charge", join(toks[start:at+1]), said, display(e.Name)))
	return again
}

// receiptWord reports whether w says money was received.
func receiptWord(w string) bool {
	switch w {
	case "collected", "collect", "received", "receive":
		return true
	}
	return false
}

// receiptFiller reports whether w may stand between an amount and the
// verb that says it was received: "how much rent did we collect".
func receiptFiller(w string) bool {
	switch w {
	case "did", "do", "does", "we", "have", "has", "had", "was", "were", "been", "is", "are", "you", "they", "i":
		return true
	}
	return false
}

// namesField reports whether the word w alone names field (a column's
// name, synonym or a word of it).
func (p *Planner) namesField(w, field string) bool {
	ss, _ := p.lex.get(w)
	for _, s := range ss {
		if s.kind == sColumn && strings.EqualFold(s.field, field) {
			return true
		}
	}
	return false
}

// paidDate is e's one date named for its payment (paid_on, paid_at), ""
// where it has none or several.
func paidDate(e *semantic.Entity) string {
	found := ""
	for _, c := range e.Columns {
		if c.Temporal() && slices.Contains(semantic.NameWords(c.Name), "paid") {
			if found != "" {
				return ""
			}
			found = c.Name
		}
	}
	return found
}

// paymentsToward reports whether a table of payments refers to entity's
// rows: money received toward them is theirs to total.
func (p *Planner) paymentsToward(entity string) bool {
	return slices.ContainsFunc(p.m.Relationships, func(r semantic.Relationship) bool {
		return strings.EqualFold(r.To, entity) && r.Cardinality == semantic.ManyToOne && semantic.PaymentRows(r.From)
	})
}
