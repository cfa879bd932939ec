package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// rowValue replans a question that speaks of the value of rows ("average
// booking value by channel", "total value of open invoices") with the
// words of the rows' one amount of money in place of "value" ("average
// booking total cents by channel"): a row's value is what it is worth,
// where its table holds one amount (oneAmount) and no column or measure
// is named value. Nil where "value" was understood, or follows or
// precedes no table, or one of persons, or the table has no one amount,
// or the question so read is not answered (found from outside: "value"
// not understood).
func (p *Planner) rowValue(question string, asOf time.Time, pl *Plan) *Plan {
	if pl.Kind != KindUnanswered || !containsWord(pl.Unknown, "value") {
		return nil
	}
	toks := tokenize(question)
	for i, t := range toks {
		if t.s != "value" && t.s != "values" {
			continue
		}
		entity := ""
		switch {
		case i > 0:
			// "booking value": the table named right before it.
			entity, _ = p.perEntity(toks[i-1 : i])
			if entity == "" && i+2 < len(toks) && toks[i+1].s == "of" {
				entity = p.tableAfter(toks[i+2:])
			}
		case i+2 < len(toks) && toks[i+1].s == "of":
			entity = p.tableAfter(toks[i+2:])
		}
		column := ""
		if entity != "" && !p.ofPersons(entity) {
			// A person's value is no column of theirs ("average user
			// value" is not their balance).
			column = p.oneAmount(entity)
		}
		if column == "" {
			return nil
		}
		words := strings.Join(nameWords(column), " ")
		if slices.Contains(nameWords(column), "value") {
			// Named so already ("order value"), and still not read:
			// planned again, it would be rewritten without end.
			return nil
		}
		read := question[:t.start] + words + question[t.end:]
		again := p.planQuestion(read, asOf)
		if again.Kind != KindMetric && again.Kind != KindRows || again.Query == nil {
			return nil
		}
		again.readAs(read, fmt.Sprintf("%q read as %s.%s, the one amount of each of %s", t.s, entity, column, display(entity)))
		return again
	}
	return nil
}

// tableAfter is the one table the first words of toks name, skipping the
// words between ("of open invoices": invoices), up to three of them; ""
// where none, or several, do.
func (p *Planner) tableAfter(toks []token) string {
	for j := 0; j < min(4, len(toks)); j++ {
		if e, _ := p.perEntity(toks[j:]); e != "" {
			return e
		}
	}
	return ""
}

// containsWord reports whether one of ws is w, or holds it as a word.
func containsWord(ws []string, w string) bool {
	for _, x := range ws {
		for _, f := range strings.Fields(x) {
			if f == w || f == w+"s" {
				return true
			}
		}
	}
	return false
}
