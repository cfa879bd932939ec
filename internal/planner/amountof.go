package planner

import (
	"fmt"
	"strings"
	"time"
)

// amountOfNamed replans "total amount of open invoices", read as the sum
// of another table's column called amount (payments.amount_cents) where
// the question names the invoices, as the invoices' own amount
// (oneAmount: total_cents): the amount of rows of a table that records
// money is theirs (found from outside: the payments of open invoices,
// 689,600, for their total of 3,597,700, at 0.85); "total amount of
// invoices", refused, is read so too. Only a plan refused, or a sum or an
// average, where the table named has no column called amount; nil where
// the question is not so, or the plan read again does not measure that
// table.
func (p *Planner) amountOfNamed(question string, asOf time.Time, pl *Plan) *Plan {
	measured := "" // the table the plan measures; "" where it was refused
	switch {
	case pl.Kind == KindUnanswered:
	case pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1:
		return nil
	default:
		mt := p.planMetric(pl, pl.Query.Metrics[0])
		if mt == nil || mt.Derived != "" || isCount(mt) {
			return nil
		}
		measured = mt.Entity
	}
	toks := tokenize(question)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].s != "amount" && toks[i].s != "amounts" || toks[i+1].s != "of" {
			continue
		}
		name := ""
		for j := i + 2; j < len(toks) && j <= i+5 && name == ""; j++ {
			if ss, _ := p.lex.get(toks[j].s); len(ss) > 0 {
				if es := only(ss, sEntity); len(es) == 1 && len(es) == len(ss) {
					name = es[0].name
				}
			}
		}
		if name == "" || strings.EqualFold(name, measured) || !recordsMoney(name) {
			return nil
		}
		e := p.entity(name)
		c := p.oneAmount(e.Name)
		if c == "" || e.Column("amount") != nil {
			return nil
		}
		from, amount := toks[i].start, strings.Join(nameWords(c), " ")
		if i > 0 {
			switch toks[i-1].s {
			case "total", "sum":
				from, amount = toks[i-1].start, totalWords(c)
			case "average", "avg", "mean":
				from, amount = toks[i-1].start, toks[i-1].s+" "+amount
			}
		}
		read := question[:from] + amount + question[toks[i].end:]
		if strings.Contains(" "+lower(read)+" ", " amount of ") {
			return nil // "total amount" read as "total amount" again
		}
		return p.readAgain(read, asOf, func(again *Plan) bool {
			if !isMetric(again) || len(again.Query.Metrics) != 1 {
				return false
			}
			m := p.planMetric(again, again.Query.Metrics[0])
			return m != nil && strings.EqualFold(m.Entity, e.Name) && strings.Contains(m.Expr, c)
		}, fmt.Sprintf("%q read as %s.%s, the amount of each of %s", strings.TrimSpace(question[from:toks[i].end]), e.Name, c, display(e.Name)))
	}
	return nil
}
