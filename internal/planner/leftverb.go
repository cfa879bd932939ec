package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// leftAsEnd replans a question refused with a verb of a person's leaving
// in it ("staff who left this year", "how many employees quit last year";
// not understood, or read as another table's date, members.left_on) with
// the word of the date a table of persons the question names ends on in
// its place ("terminated", of staff.terminated_on): the end of a person's
// time with the organisation, as "staff terminated this year" reads it
// (found from outside: "left" not understood). nil where the table has no
// one such date, its name has no word of the verb's kind, or the question
// names no table of persons, or several.
func (p *Planner) leftAsEnd(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered {
		return nil
	}
	toks := tokenize(question)
	at := slices.IndexFunc(toks, func(t token) bool { return leavingWord(t.s) })
	if at < 0 {
		return nil
	}
	verb := ""
	for i := range p.m.Entities {
		e := &p.m.Entities[i]
		if e.Role != nil || !p.ofPersons(e.Name) || !namedIn(toks, e.Name) {
			continue
		}
		var ends []string
		for _, c := range e.Columns {
			if c.Temporal() && c.TimeRole == semantic.TimeRoleEnd {
				ends = append(ends, c.Name)
			}
		}
		if len(ends) != 1 {
			return nil
		}
		w := ""
		for _, x := range nameWords(ends[0]) {
			if len(x) > 4 && strings.HasSuffix(x, "ed") {
				w = x // terminated_on
			}
		}
		if w == "" || verb != "" {
			return nil
		}
		if slices.ContainsFunc(e.Columns, func(c semantic.Column) bool {
			return slices.Contains(nameWords(c.Name), toks[at].s)
		}) {
			return nil // "left" of staff.left_on: read so already
		}
		verb = w
	}
	if verb == "" {
		return nil
	}
	read := question[:toks[at].start] + verb + question[toks[at].end:]
	return p.readAgain(read, asOf, answered, fmt.Sprintf("%q read as %q, the date they ended on", toks[at].s, verb))
}

// leavingWord reports whether w says a person left ("left", "quit").
func leavingWord(w string) bool {
	switch w {
	case "left", "leave", "leaves", "leaving", "quit", "quits", "resigned", "departed":
		return true
	}
	return false
}

// namedIn reports whether toks name table entity by a word of its name.
func namedIn(toks []token, entity string) bool {
	last := stemKey(lastWordOf(strings.ToLower(display(entity))))
	return slices.ContainsFunc(toks, func(t token) bool { return stemKey(t.s) == last })
}
