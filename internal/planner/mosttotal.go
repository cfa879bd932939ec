package planner

import (
	"fmt"
	"time"
)

// mostAmount replans a refused "which boat had the most maintenance
// cost", where "most" was read as the largest single amount and the
// boats then related to nothing, as "the highest total maintenance cost":
// the groups ranked by the amount added up (found from outside, on a
// yacht-charter company). "least" is "lowest total". Only where the plan
// read again is a sum over groups; nil otherwise.
func (p *Planner) mostAmount(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || pl.Query != nil && len(pl.Query.Dimensions) > 0 {
		return nil
	}
	toks := tokenize(question)
	for i := 1; i+1 < len(toks); i++ {
		with := ""
		switch toks[i].s {
		case "most":
			with = "highest total"
		case "least":
			with = "lowest total"
		default:
			continue
		}
		if toks[i-1].s != "the" || !p.amountAfter(toks, i+1) {
			continue
		}
		read := question[:toks[i].start] + with + question[toks[i].end:]
		return p.readAgain(read, asOf, func(again *Plan) bool {
			if !isMetric(again) || len(again.Query.Metrics) != 1 || len(again.Query.Dimensions) == 0 || again.Query.Limit == 0 {
				return false
			}
			m := p.planMetric(again, again.Query.Metrics[0])
			return m != nil && exprStarts(m.Expr, "SUM(")
		}, fmt.Sprintf("%q read as %q: the amount added up for each", "the "+toks[i].s, "the "+with))
	}
	return nil
}

// amountAfter reports whether the words from toks[at] name an amount: a
// number column's word, right there or after one word of its table
// ("maintenance cost"); not a plural, though a column is named by it
// ("the most refunds", with refund_amt: how many), nor a table's word
// alone, "the most recent", "the most expensive charge", "the most
// total".
func (p *Planner) amountAfter(toks []token, at int) bool {
	for j := at; j < len(toks) && j <= at+1; j++ {
		ss, _ := p.lex.get(toks[j].s)
		if len(ss) == 0 || toks[j].s == "total" {
			return false
		}
		if len(only(ss, sEntity)) > 0 {
			continue // "the most maintenance cost": the table, then its amount
		}
		if singular(toks[j].s) != toks[j].s {
			return false // "the most refunds": how many, whatever column the word names
		}
		for _, s := range ss {
			if s.kind == sColumn && s.numeric && !s.key && !s.temporal {
				return true
			}
		}
		return false
	}
	return false
}
