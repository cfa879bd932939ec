package planner

import (
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// moneyRowsCounted asks, of rows of a table named for amounts spent or
// charged (expenses, costs, fees, salaries) counted with no word of
// counting ("expenses by category this year"), whether their number or
// their total is meant: a manager who says "expenses by category" may
// well mean the money (found from
// outside: the number of expenses by category, 42 for 4,694,170 cents,
// at 0.85), and so of payments said received ("payments received by
// base"). The options are the question asked each way, offered where
// both are answered; nil where the question says "how many" or "number
// of", the table has no one amount, or the reading is no count of its
// rows.
func (p *Planner) moneyRowsCounted(question string, asOf time.Time, pl *Plan) *Plan {
	if pl == nil || pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 || len(pl.Query.Compare) > 0 || len(pl.Query.Order) > 0 || pl.Query.Limit > 0 {
		return nil // "which fundraiser has the most pledges": how many
	}
	mt := pl.over(p.m).Metric(pl.Query.Metrics[0])
	if mt == nil || mt.Derived != "" || len(mt.Filters) > 0 || !exprStarts(mt.Expr, "COUNT(") || exprStarts(mt.Expr, "COUNT(DISTINCT") {
		return nil
	}
	amt := p.oneAmount(mt.Entity)
	if amt == "" || p.m.IsRestricted(mt.Entity, amt) {
		return nil
	}
	toks := tokenize(question)
	at := -1
	for i, t := range toks {
		switch t.s {
		case "number", "count", "counts", "often", "total", "sum", "amount", "much":
			return nil // said which
		case "many":
			if i > 0 && toks[i-1].s == "how" {
				return nil
			}
		}
		if one := singular(t.s); at < 0 && one != t.s && amountNoun(one) && ownNameWord(mt.Entity, t.s) {
			at = i
		}
		if at < 0 && i+1 < len(toks) && receiptWord(toks[i+1].s) && semantic.PaymentRows(mt.Entity) && ownNameWord(mt.Entity, t.s) {
			// "payments received last month by base": money said
			// received may be the money or the number of payments
			// (found from outside: the number given, at 0.85, where
			// the tester meant the money).
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	t := toks[at]
	return p.numberOrTotal(question, t.start, t.end, amt, asOf)
}

// amountNoun reports whether a table's word names amounts of money
// rather than the events that move them: "expenses by category" may be
// the money spent, where "payments by method" and "donations by month"
// are read as how many (found from outside: testers counted those).
func amountNoun(w string) bool {
	switch w {
	case "expense", "cost", "fee", "charge", "salary", "salarie", "wage", "spend", "spending", "expenditure", "outgoing":
		return true
	}
	return false
}
