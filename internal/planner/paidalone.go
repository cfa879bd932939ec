package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// paidAlone reads money said paid, received or collected with no table
// named ("total paid last month", "top 5 customers by total paid this
// year") as the total of the one table of payments, received: the
// question planned again with the table's name before the verb ("total
// payments received last month"), as the question the reading says.
// Found from outside: refused as "rows with paid", a status of
// invoices. Nil where the model has no one table of payments, the
// question names it, says no total, or the reading is not of its money.
func (p *Planner) paidAlone(question string, asOf time.Time) *Plan {
	var pay *semantic.Entity
	for i := range p.m.Entities {
		if e := &p.m.Entities[i]; e.Role == nil && semantic.PaymentRows(e.Name) {
			if pay != nil {
				return nil
			}
			pay = e
		}
	}
	if pay == nil {
		return nil
	}
	toks := tokenize(question)
	total, verb := false, ""
	for i, t := range toks {
		switch t.s {
		case "total", "sum":
			total = true
		case "much":
			total = total || i > 0 && toks[i-1].s == "how"
		case "paid", "received", "collected":
			if total && verb == "" {
				verb = question[t.start:t.end]
			}
		}
		if n := lower(display(pay.Name)); t.s == n || t.s == singular(n) {
			return nil // "total payments received": read as it is
		}
	}
	if verb == "" {
		return nil
	}
	read, ok := replaceWord(question, verb, lower(display(pay.Name))+" received")
	if !ok {
		return nil
	}
	pl := p.replan(read, asOf)
	if pl.Kind != KindMetric || pl.Query == nil || len(pl.Query.Metrics) != 1 || !strings.EqualFold(p.metricEntity(pl.Query.Metrics[0], pl.AdHoc), pay.Name) {
		return nil
	}
	if c := p.collected(read, asOf, pl); c != nil && c.Kind == KindMetric {
		pl = c // received: those that went through
	}
	pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as the %s received", verb, display(pay.Name)))
	if pl.Read == "" {
		pl.Read = read
	}
	return pl
}
