package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// receivedAmount reads a total or an average of a table's rows said with
// the verb of one of its dates ("total payments received last month",
// where payments.received_at is that date) as the total of the table's
// one amount, in the period on that date: the verb says when, not what
// is added up (found from outside: refused, "received_at is not a
// number"). ok is false where t is no such term; the plan is not nil
// where reading the amount failed.
func (b *builder) receivedAmount(t *term) (pl *Plan, ok bool) {
	if len(t.cands) != 1 || len(t.aggs) != 1 || t.aggs[0] != "sum" && t.aggs[0] != "avg" || t.neg || t.hasNum {
		return nil, false
	}
	s := t.cands[0]
	if s.kind != sColumn || !s.temporal || s.key || len(b.st.dates) > 1 {
		return nil, false
	}
	ws, cw := strings.Fields(lower(t.it.text)), words(s.column)
	if len(ws) == 0 || len(cw) == 0 {
		return nil, false
	}
	verb := ws[len(ws)-1]
	if !pastForm(verb) || verb != cw[0] && pastOf(cw[0]) != verb {
		return nil, false
	}
	// The table's rows are named right before the verb, in the term
	// ("payments received") or as the term before it.
	named := len(ws) > 1
	for _, w := range ws[:len(ws)-1] {
		named = named && ownNameWord(s.entity, w)
	}
	if i := slices.Index(b.st.terms, t); !named && i > 0 {
		u := b.st.terms[i-1]
		named = len(u.aggs) == 0 && !u.byMode && !u.hasNum && len(u.cands) == 1 && u.cands[0].kind == sEntity && strings.EqualFold(u.cands[0].name, s.entity)
	}
	if !named {
		return nil, false // "total late fees paid": not the table's own rows
	}
	if es := words(s.entity); !moneyNoun(singular(es[len(es)-1])) && !semantic.PaymentRows(s.entity) {
		// "total orders shipped last month" is how many, as "total
		// orders" is; collections and remittances are payments.
		return nil, false
	}
	amount := b.p.oneAmount(s.entity)
	if amount == "" || b.p.m.IsRestricted(s.entity, amount) {
		return nil, false
	}
	m := *t
	m.cands = []sense{{kind: sColumn, entity: s.entity, column: amount, field: s.entity + "." + amount, numeric: true, strength: strName}}
	if pl := b.columnAggs(&m); pl != nil {
		return pl, true
	}
	b.und("%q read as the %s of %s.%s, dated by %s", t.it.text, map[string]string{"sum": "total", "avg": "average"}[t.aggs[0]], s.entity, amount, s.field)
	// The date stays: the period's, or with none the verb that says the
	// rows happened (collected reads "received" as those that went
	// through).
	t.aggs = nil
	if len(b.st.dates) == 0 {
		t.role = "context"
	}
	return nil, true
}

// totalOfSubject reads "total" said of nothing (it adds up no measure or
// amount named after it) as the total of the subject's one amount, where
// the subject is a table of money (payments, invoices, donations …);
// otherwise it refuses: a count is no total of nothing, and which amount
// is not for quarry to pick.
func (b *builder) totalOfSubject() *Plan {
	es := words(b.subject)
	money := len(es) > 0 && (moneyNoun(singular(es[len(es)-1])) || semantic.PaymentRows(b.subject))
	amount := ""
	if money {
		amount = b.p.oneAmount(b.subject)
	}
	if amount == "" || b.p.m.IsRestricted(b.subject, amount) {
		return b.fail(fmt.Sprintf("“total” names nothing to add up; name the amount (“total amount of %s”), or ask “how many %s”", display(b.subject), display(b.subject)))
	}
	t := &term{it: &item{text: "total"}, aggs: []string{"sum"}, cands: []sense{{kind: sColumn, entity: b.subject, column: amount, field: b.subject + "." + amount, numeric: true, strength: strName}}}
	if pl := b.columnAggs(t); pl != nil {
		return pl
	}
	b.und("%q read as the total of %s.%s", "total", b.subject, amount)
	return nil
}
