package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// madeAsEntered reads a verb of making no table's column is named for
// ("how many appointments were booked last month", where appointments
// have created_at and scheduled_for, and no status 'booked') as the
// making of the rows: the question planned again with the verb of the
// date each row was entered (created), and answered where that reading
// puts the period on that date of a table dated by the event it is made
// for (semantic.ExistedBy). "Booked for next month" names the event,
// and is not read so (found from outside: refused, where "created" was
// answered). Nil otherwise.
func (p *Planner) madeAsEntered(question string, unknown []string, asOf time.Time) *Plan {
	if len(unknown) != 1 || !semantic.MakingWord(unknown[0]) {
		return nil
	}
	toks := tokenize(question)
	for i, t := range toks {
		if t.s == unknown[0] && i+1 < len(toks) && (toks[i+1].s == "for" || toks[i+1].s == "to") {
			return nil
		}
	}
	// The tables made on a date named by a verb, by verb: one reading
	// again per verb, not per table (a wide model has thousands).
	var verbs []string
	made := map[string]map[string]string{} // verb → lower(field) → its table
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		by := semantic.ExistedBy(e)
		if by == "" || strings.EqualFold(by, e.Name+"."+e.TimeColumn) {
			continue
		}
		_, col, _ := strings.Cut(by, ".")
		verb := ""
		for _, w := range nameWords(col) {
			if strings.HasSuffix(w, "ed") {
				verb = w
			}
		}
		if verb == "" || verb == unknown[0] {
			continue // the verb itself unknown: planned again, it would be read again
		}
		if made[verb] == nil {
			made[verb] = map[string]string{}
			verbs = append(verbs, verb)
		}
		made[verb][strings.ToLower(by)] = e.Name
	}
	for _, verb := range verbs {
		read, ok := replaceWord(question, unknown[0], verb)
		if !ok {
			continue
		}
		pl := p.replan(read, asOf)
		if pl.Kind != KindMetric && pl.Kind != KindRows || pl.Query == nil || pl.Query.TimeRange == nil {
			continue
		}
		by := pl.Query.TimeRange.Field
		ent, ok := made[verb][strings.ToLower(by)]
		if !ok {
			continue
		}
		pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %q: the %s made then, by %s, whatever became of them", unknown[0], verb, display(ent), by))
		if pl.Read == "" {
			pl.Read = read
		}
		return pl
	}
	return nil
}
