package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// roleAsValue reads the rows counted or listed as a role ("how many
// instructors do we have": lessons.instructor_id's staff) as the rows of
// the role's table that hold the role's word in a column of theirs
// (staff.role = 'instructor'), where one column holds it: every
// instructor, not only those lessons point at (found from outside:
// refused as rows lessons point at). The question is planned again with
// the value said of the table ("how many staff with role instructor …");
// nil where no one such column is, or that reading is not answered.
func (p *Planner) roleAsValue(question string, asOf time.Time, pl *Plan) *Plan {
	if pl == nil || pl.Kind != KindUnanswered {
		return nil
	}
	// Refused as rows the other table points at, or otherwise where the
	// word is what the question counts ("how many servers at each
	// restaurant": counted through the orders that name a server, ever,
	// 16 for 8 at 0.85, found from outside).
	asRows := strings.Contains(pl.Reason, "not as rows of its own")
	toks := tokenize(question)
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		if e.Role == nil {
			continue
		}
		of := p.entity(e.Role.Of)
		role := singular(lower(display(e.Name)))
		if of == nil {
			continue
		}
		col, val := "", ""
		for _, c := range of.Columns {
			if k := slices.IndexFunc(c.Values, func(v string) bool { return singular(strings.ReplaceAll(lower(v), "_", " ")) == role }); k >= 0 {
				if col != "" {
					return nil // two columns hold it: which?
				}
				col, val = c.Name, c.Values[k]
			}
		}
		if col == "" {
			continue
		}
		rw := strings.Fields(role)
		for i := 0; i+len(rw) <= len(toks); i++ {
			said := true
			for j, w := range rw {
				said = said && (toks[i+j].s == w || j == len(rw)-1 && singular(toks[i+j].s) == w)
			}
			if !said || !asRows && !countedAt(toks, i) {
				continue
			}
			t := toks[i+len(rw)-1]
			t.s, t.start = question[toks[i].start:t.end], toks[i].start
			read := question[:t.start] + fmt.Sprintf("%s with %s %s", lower(display(of.Name)), strings.ReplaceAll(col, "_", " "), val) + question[t.end:]
			again := p.replan(read, asOf)
			if again.Kind != KindMetric && again.Kind != KindRows {
				return nil
			}
			again.Understood = append(again.Understood, fmt.Sprintf("%q read as the %s whose %s is %s", t.s, display(of.Name), col, val))
			if again.Read == "" {
				again.Read = read
			}
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
