package planner

import "strings"

// Words a manager puts around the measure: a value and its column's noun,
// a table said with a state after "are", an aggregate word before a longer
// term.

// valueNouns reads a value followed by the last word of its column's name
// or synonym as the value ("the WELCOME10 code": discount_code, also
// "promo code"), where the word means nothing else.
func (p *Planner) valueNouns(items []item) []item {
	for i := 0; i+1 < len(items); i++ {
		it, next := items[i], items[i+1]
		if it.kind != itTerm || next.kind != itUnknown || len(it.senses) == 0 || len(only(it.senses, sValue)) != len(it.senses) {
			continue
		}
		ok := true
		for _, s := range it.senses {
			ok = ok && s.entity == it.senses[0].entity && s.column == it.senses[0].column && p.columnNoun(s.entity, s.column, next.text)
		}
		if !ok {
			continue
		}
		items[i].text += " " + next.text
		items = append(items[:i+1], items[i+2:]...)
	}
	return items
}

// columnNoun reports whether w is the last word of the column's name or of
// one of its synonyms.
func (p *Planner) columnNoun(entity, column, w string) bool {
	e := p.entity(entity)
	if e == nil || column == "" {
		return false
	}
	c := e.Column(column)
	if c == nil {
		return false
	}
	for _, n := range append([]string{strings.ReplaceAll(c.Name, "_", " ")}, c.Synonyms...) {
		if f := strings.Fields(strings.ToLower(n)); len(f) > 0 && f[len(f)-1] == w {
			return true
		}
	}
	return false
}

// predicates reads a table said with a word after "is"/"are" as the
// measure that word and the table name together ("how many tickets are
// unresolved": the metric "unresolved tickets"), where that phrase names
// only metrics.
func (p *Planner) predicates(items []item) []item {
	for i := 0; i < len(items); i++ {
		if items[i].kind != itTerm || len(only(items[i].senses, sEntity, sMetric)) == 0 {
			continue
		}
		j, be := i+1, false
		for ; j < len(items) && items[j].kind == itStop; j++ {
			switch items[j].text {
			case "is", "are", "was", "were":
				be = true
				continue
			case "still", "currently", "now":
				continue
			}
			break
		}
		// "tickets are urgent and unresolved": values of the table and
		// "and" before the word.
		k := j
		for k < len(items) && (items[k].kind == itTerm && len(items[k].senses) > 0 && len(only(items[k].senses, sValue)) == len(items[k].senses) || items[k].kind == itKw && items[k].text == "and") {
			k++
		}
		if k > j && k < len(items) && items[k-1].kind == itKw {
			j = k
		}
		if !be || j >= len(items) || strings.Contains(items[j].text, " ") {
			continue
		}
		// A word with a meaning of its own keeps it ("customers are
		// active": a subscription status).
		if w := items[j]; w.kind != itUnknown && (w.kind != itTerm || len(only(w.senses, sMetric)) != len(w.senses)) {
			continue
		}
		phrase := items[j].text + " " + items[i].text
		ss := p.lex.senses(phrase)
		if len(ss) == 0 || len(only(ss, sMetric)) != len(ss) {
			continue
		}
		items[i].senses, items[i].via = ss, phrase
		if j > 0 && items[j-1].kind == itKw && items[j-1].text == "and" {
			items = append(items[:j-1], items[j+1:]...) // "urgent and unresolved": the value stays
			continue
		}
		items = append(items[:j], items[j+1:]...)
	}
	return items
}

// aggregateKw reports whether kw is a keyword of an aggregate.
func aggregateKw(kw string) bool {
	return kw == "count" || kw == "sum" || kw == "avg" || kw == "min" || kw == "max"
}

// termEndsAfter reports whether a known term starts at from and ends past
// end.
func (p *Planner) termEndsAfter(toks []token, from, end int) bool {
	for n := min(len(toks)-from, p.lex.maxLen); n >= 1 && from+n > end; n-- {
		if s, ok := p.lex.get(join(toks[from : from+n])); ok && !ownOnly(s) {
			return true
		}
	}
	return false
}

// rankedBy reports whether the superlative at i is followed by a term
// that is not a number and then "by" ("the biggest channel by revenue"):
// the term is ranked by what follows, not aggregated.
func rankedBy(mean []*item, i int) bool {
	// "the biggest business customers by revenue": values before the
	// ranked rows qualify them.
	for i+2 < len(mean) && mean[i+1].kind == itTerm && len(mean[i+1].senses) > 0 && len(only(mean[i+1].senses, sValue)) == len(mean[i+1].senses) {
		i++
	}
	if i+2 >= len(mean) || mean[i+1].kind != itTerm || mean[i+2].kind != itKw || mean[i+2].kw != "by" || mean[i+2].text != "by" {
		return false
	}
	// A table whose count is also a metric ("customers") is still the
	// rows ranked.
	table := len(only(mean[i+1].senses, sEntity)) > 0
	for _, s := range mean[i+1].senses {
		if s.numeric || s.temporal || s.kind == sValue || s.kind == sMetric && !table {
			return false
		}
	}
	return len(mean[i+1].senses) > 0
}

// pluralRanked reports whether the rows a superlative at i ranks (past
// the values that qualify them) are named in the plural.
func pluralRanked(mean []*item, i int) bool {
	for i+1 < len(mean) && mean[i+1].kind == itTerm && len(mean[i+1].senses) > 0 && len(only(mean[i+1].senses, sValue)) == len(mean[i+1].senses) {
		i++
	}
	if i+1 >= len(mean) || mean[i+1].kind != itTerm {
		return false
	}
	w := lastWordOf(mean[i+1].text)
	return singular(w) != w
}

// aggregateLead reports whether a term's words begin with an aggregate
// ("number of tickets", "average order value").
func aggregateLead(text string) bool {
	for _, lead := range []string{"number of ", "count of ", "total ", "average ", "sum of "} {
		if strings.HasPrefix(text, lead) {
			return true
		}
	}
	return false
}

// ourFigure reports whether a question asks "what is our …": a figure of
// the business, not a list of rows.
func ourFigure(text string) bool {
	for _, p := range []string{"what our ", "what s our ", "whats our ", "what is our ", "what was our "} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// termSoon reports whether a term follows at i, possibly after one
// superlative word ("the 5 cheapest products").
func termSoon(mean []*item, i int) bool {
	if i < len(mean) && mean[i].kind == itKw {
		if supAdjective(mean[i].kw) || mean[i].kw == "max" || mean[i].kw == "min" {
			i++
		}
	}
	return i < len(mean) && mean[i].kind == itTerm
}
