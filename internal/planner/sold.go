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
	if len(unknown) != 1 {
		return nil
	}
	verb, why := "ordered", "the rows' sale is the order they belong to"
	switch {
	case unknown[0] != "sold" && unknown[0] != "sell" && p.datedBy("sold", "sale"):
		// "how many tickets did Olivia Smith buy": a purchase is a sale
		// seen from the buyer, where rows are dated by their sale
		// (tickets.sold_at; found from outside: "buy" not understood).
		verb, why = "sold", "a purchase is the rows' sale"
	case !p.datedBy("ordered", "order"):
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
	read = saleVerbRE().ReplaceAllString(read, verb)
	if read == question {
		return nil
	}
	pl := p.replan(read, asOf)
	if pl.Kind != KindMetric && pl.Kind != KindRows {
		return nil
	}
	pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %q: %s", unknown[0], verb, why))
	if pl.Read == "" {
		// The checks hold the plan to the words it answers.
		pl.Read = read
	}
	return pl
}

// datedBy reports whether some table of the knowledge has a date named
// with one of words: its sale (sold_at, sale_date) or its ordering
// (ordered_at, order_date).
func (p *Planner) datedBy(words ...string) bool {
	for _, e := range p.m.Entities {
		for _, c := range e.Columns {
			if c.Temporal() && slices.ContainsFunc(nameWords(c.Name), func(w string) bool { return slices.Contains(words, w) }) {
				return true
			}
		}
	}
	return false
}
