package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// saleVerbRE is a verb of selling or buying said of rows: "tickets sold",
// "policies we sold", "items purchased last month".
var saleVerbRE = lazyRE(`(?i)\b(sold|bought|purchased)\b`)

// saleByRE is such a verb right before "by": "tickets sold by venue".
var saleByRE = lazyRE(`(?i)\b(sold|bought|purchased)\s+by\b`)

// soldAsOrdered reads a verb of selling or buying that names nothing in
// the knowledge ("how many tickets were sold last month", "policies sold
// this year") as the making of the order the rows belong to, where the
// knowledge dates some rows by their ordering (orders.ordered_at): the
// question is planned again with "ordered" in its place, and answered if
// that reading is (found from outside on three databases: "sold" not
// understood, the most common refusal of a ticketing company's
// questions). Nil where the only unknown word is not such a verb, or the
// reading is not answered.
func (p *Planner) soldAsOrdered(question string, unknown []string, asOf time.Time) *Plan {
	if len(unknown) != 1 || !p.datesOrdering() {
		return nil
	}
	read := question
	switch unknown[0] {
	case "sold", "bought", "purchased":
	case "sell", "buy", "purchase":
		// "how many tickets did we sell last month": the auxiliary
		// dropped, the verb in the past.
		aux := auxRE().FindStringIndex(strings.ToLower(read))
		if aux == nil {
			return nil
		}
		read = read[:aux[0]] + read[aux[1]:]
		if r, ok := replaceWord(read, unknown[0], pastOf(unknown[0])); ok {
			read = r
		}
	default:
		return nil
	}
	// "tickets sold by venue": not "ordered by", a sort; with no period
	// to date the sale the verb says only that the rows were sold.
	read = saleByRE().ReplaceAllString(read, "by")
	read = saleVerbRE().ReplaceAllString(read, "ordered")
	if read == question {
		return nil
	}
	pl := p.replan(read, asOf)
	if pl.Kind != KindMetric && pl.Kind != KindRows {
		return nil
	}
	pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %q: the rows' sale is the order they belong to", unknown[0], "ordered"))
	if pl.Read == "" {
		// The checks hold the plan to the words it answers.
		pl.Read = read
	}
	return pl
}

// datesOrdering reports whether some table of the knowledge is dated by
// its ordering (ordered_at, order_date).
func (p *Planner) datesOrdering() bool {
	for _, e := range p.m.Entities {
		for _, c := range e.Columns {
			if c.Temporal() && slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return w == "ordered" || w == "order" }) {
				return true
			}
		}
	}
	return false
}
