package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// usedReadPast refuses a plan that read past a verb of use ("total parts
// used by category", "materials consumed") where the rows measured are
// used by rows of another table that refer to them (a job's parts): the
// use is those rows, and the rows measured alone answer another question
// (found from outside: the parts in the catalogue counted by category,
// 4 for 3,834, at 1.00). Nil where nothing was read past so, or no table
// refers to the rows.
func (p *Planner) usedReadPast(question string, pl *Plan) *Plan {
	word := ""
	for _, w := range pl.Ignored {
		switch w {
		case "used", "consumed", "installed", "fitted":
			word = w
		}
	}
	if word == "" || pl.Query == nil {
		return nil
	}
	m := pl.over(p.m)
	var ents []string
	if pl.Query.Rows != nil {
		ents = append(ents, pl.Query.Rows.Entity)
	}
	for _, name := range pl.Query.Metrics {
		if mt := m.Metric(name); mt != nil && mt.Entity != "" {
			ents = append(ents, mt.Entity)
		}
	}
	toks := tokenize(pl.Read)
	if pl.Read == "" {
		toks = tokenize(question)
	}
	for _, e := range ents {
		if !saidUsed(toks, word, e) {
			continue // "orders that used a discount code": the orders' own act
		}
		if slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.OnRelated() || f.Count }) {
			continue // "templates used in more than one document": read by the condition
		}
		var users []string
		for _, r := range m.Relationships {
			if strings.EqualFold(r.To, e) && !strings.EqualFold(r.From, e) && r.Cardinality == semantic.ManyToOne && !slices.ContainsFunc(ents, func(x string) bool { return strings.EqualFold(x, r.From) }) {
				users = append(users, r.From)
			}
		}
		if len(users) > 0 {
			return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Reason: fmt.Sprintf("quarry did not read %q: the %s %s are rows of another table that refers to them (%s); ask of those rows (“total quantity of %s by …”), or leave %q out",
				word, display(e), word, strings.Join(users, ", "), display(users[0]), word)}
		}
	}
	return nil
}

// saidUsed reports whether the verb follows the rows' own noun as what
// was done to them ("parts used by category", "parts used last month"),
// not as what they did ("orders used a code").
func saidUsed(toks []token, word, entity string) bool {
	ws := nameWords(entity)
	if len(ws) == 0 {
		return false
	}
	noun := ws[len(ws)-1]
	for i, t := range toks {
		if t.s != word || i == 0 || toks[i-1].s != noun && toks[i-1].s != plural(noun) && singular(toks[i-1].s) != singular(noun) {
			continue
		}
		if i+1 == len(toks) {
			return true
		}
		switch toks[i+1].s {
		case "by", "per", "in", "last", "this", "during", "on", "since", "each", "for", "across", "over", "so", "to", "from", "between", "at":
			return true
		}
	}
	return false
}
