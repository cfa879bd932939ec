package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// peopleWord reports whether w names persons in general, no table in
// particular.
func peopleWord(w string) bool {
	switch w {
	case "people", "persons", "folks", "individuals":
		return true
	}
	return false
}

// peopleAsTable replans a question refused for a word of persons in
// general that names no table ("how many people signed up last year")
// with the one table of persons in its place (the users); nil where the
// word was read, or where no table or several hold persons (customers
// or employees?), so the question stays refused.
func (p *Planner) peopleAsTable(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || !slices.ContainsFunc(pl.Unknown, peopleWord) {
		return nil
	}
	table := ""
	for _, e := range p.m.Entities {
		if p.ofPersons(e.Name) {
			if table != "" {
				return nil
			}
			table = e.Name
		}
	}
	if table == "" {
		return nil
	}
	var b strings.Builder
	last, word := 0, ""
	for _, t := range tokenize(question) {
		if peopleWord(t.s) {
			b.WriteString(question[last:t.start])
			b.WriteString(display(table))
			last, word = t.end, t.s
		}
	}
	b.WriteString(question[last:])
	again := p.planQuestion(b.String(), asOf)
	if again.Kind == KindUnanswered {
		return nil
	}
	again.readAs(b.String(), fmt.Sprintf("%q read as %s, the one table of persons", word, display(table)))
	return again
}
