package planner

import (
	"fmt"
	"strings"
	"time"
)

// byStateRows replans a refused "top 5 vets by completed appointments",
// where the word after "by" is a stored value of the table named next
// (appointments.status = 'completed') and was read as a date of its own
// (completed_at) to group by, as "by number of completed appointments":
// the rows in that state counted for each (found from outside, on a vet
// chain: refused, "could not tell how vet relates"). Only a refused plan,
// and only where the question read again is answered with a count; nil
// otherwise.
func (p *Planner) byStateRows(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered {
		return nil
	}
	toks := tokenize(question)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].s != "by" {
			continue
		}
		table := ""
		if ss, _ := p.lex.get(toks[i+2].s); len(ss) > 0 {
			if es := only(ss, sEntity); len(es) == 1 {
				table = es[0].name
			}
		}
		if table == "" {
			continue
		}
		ss, _ := p.lex.get(toks[i+1].s)
		valued := false
		for _, s := range only(ss, sValue) {
			valued = valued || strings.EqualFold(s.entity, table)
		}
		if !valued {
			continue
		}
		read := question[:toks[i+1].start] + "number of " + question[toks[i+1].start:]
		return p.readAgain(read, asOf, func(again *Plan) bool {
			if !isMetric(again) || len(again.Query.Metrics) != 1 {
				return false
			}
			m := p.planMetric(again, again.Query.Metrics[0])
			return m != nil && isCount(m) && strings.EqualFold(m.Entity, table)
		}, fmt.Sprintf("%q read as the number of %s %s", "by "+toks[i+1].s+" "+toks[i+2].s, toks[i+1].s, display(table)))
	}
	return nil
}
