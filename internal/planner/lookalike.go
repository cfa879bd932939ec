package planner

import (
	"fmt"
	"strings"
)

// Words that look like a thing the schema holds but name another: the
// attempts at a delivery are not deliveries, a cost "per litre" is not a
// cost at each litres value.

// attemptsAsDone refuses to count the rows of a table of attempts
// (delivery_attempts) as the things attempted: "deliveries" named by the
// plural of the name's first word are not attempts, some of which failed
// (found from outside: "which driver made the most deliveries" counted
// the failed attempts, and named the wrong driver, at 1.00). "delivery
// attempts", "quiz" in "average quiz score", and "failed deliveries" (a
// value of the table's own) still name the table.
func (b *builder) attemptsAsDone() *Plan {
	ent := b.p.entity(b.subject)
	if ent == nil {
		return nil
	}
	ws := words(ent.Name)
	if len(ws) < 2 || singular(ws[len(ws)-1]) != "attempt" {
		return nil
	}
	for _, t := range b.st.terms {
		if t.cands[0].kind == sValue && strings.EqualFold(t.cands[0].entity, ent.Name) {
			return nil // "failed deliveries": the attempts of one outcome
		}
	}
	for _, t := range b.st.terms {
		w := lastWordOf(t.it.text)
		if t.cands[0].kind == sEntity && strings.EqualFold(t.cands[0].name, ent.Name) && singular(w) != w && !strings.Contains(t.it.text, "attempt") {
			return b.fail(fmt.Sprintf("%q would be read as %s, whose rows are attempts, the failed ones too; ask for %s, and for their outcome, to count them", t.it.text, display(ent.Name), display(ent.Name)))
		}
	}
	return nil
}

// perMeasure refuses "per" before an amount, a column of quantities with
// no few known values ("average fuel cost per litre"): a rate, the one
// amount over the other, not a grouping by each quantity (found from
// outside: 834 rows of the average cost at each litres value, at 1.00).
// "per star rating", a column of a few known values, is a grouping.
func (b *builder) perMeasure(t *term, s sense) *Plan {
	if !s.numeric || s.temporal || s.key || !strings.Contains(" "+b.st.text+" ", " per "+t.it.text+" ") {
		return nil
	}
	if c := b.p.column(s.entity, s.column); c == nil || len(c.Values) > 0 {
		return nil
	}
	col := strings.Join(words(s.column), " ")
	return b.fail(fmt.Sprintf("“per %s” reads as a rate, an amount divided by %s, which quarry does not compute yet; ask for the total and the total %s, or “by %s” for each value", t.it.text, s.field, col, col))
}
