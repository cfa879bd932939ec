package planner

import (
	"fmt"
	"strings"
	"time"
)

// countedRoleValue replans a question refused where a counted word ("how many
// servers", "number of servers") names both a role
// (server: the staff orders name through server_id) and a value of a
// column of the role's table (staff.role 'server') as the rows of that
// table holding the value: "how many servers at each restaurant" is the
// staff whose role is server, by their own restaurant, as "how many
// servers do we have" already reads it (found from outside: the staff
// who had served orders there, ever, 16 for 8 at 0.85). nil where no
// word is both, or that reading is not answered either.
func (p *Planner) countedRoleValue(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || strings.Contains(pl.Reason, "not as rows of its own") {
		return nil // roleAsValue's
	}
	toks := tokenize(question)
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		if e.Role == nil {
			continue
		}
		role := strings.ToLower(display(e.Name))
		of := p.entity(e.Role.Of)
		if of == nil {
			continue
		}
		n := len(strings.Fields(role))
		for k := 0; k+n <= len(toks); k++ {
			said := join(toks[k : k+n])
			if said != role && singular(said) != role || !countedAt(toks, k) {
				continue
			}
			value, col := "", ""
			for _, c := range of.Columns {
				for _, v := range c.Values {
					if strings.EqualFold(strings.ReplaceAll(v, "_", " "), role) {
						if value != "" {
							return nil // a value of two columns: which?
						}
						value, col = v, c.Name
					}
				}
			}
			if value == "" {
				continue
			}
			if k+n < len(toks) && stemKey(toks[k+n].s) == stemKey(lastWordOf(strings.ToLower(display(of.Name)))) {
				// "adjuster staff": read so already, and still refused;
				// planned again it would be read again without end.
				return nil
			}
			read := question[:toks[k].start] + role + " " + strings.ToLower(display(of.Name)) + question[toks[k+n-1].end:]
			again := p.planQuestion(read, asOf)
			if again.Kind != KindMetric && again.Kind != KindRows && again.Kind != KindClarify {
				return nil
			}
			if again.Kind == KindClarify {
				if len(again.roleOpts) > 0 {
					// "adjuster staff with more than 40 claims": asked
					// which link, though the word said it.
					return nil
				}
				return again
			}
			again.readAs(read, fmt.Sprintf("%q read as the %s whose %s is '%s'", said, display(of.Name), col, value))
			return again
		}
	}
	return nil
}

// countedAt reports whether the word at toks[k] is what the question
// counts: right after "how many", or "number of" or "count of".
func countedAt(toks []token, k int) bool {
	switch {
	case k > 0 && toks[k-1].s == "many":
		return true
	case k > 1 && toks[k-1].s == "of" && (toks[k-2].s == "number" || toks[k-2].s == "count"):
		return true
	}
	return false
}
