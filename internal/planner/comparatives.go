package planner

import (
	"regexp"
	"strings"
	"sync"
)

// Comparatives. "Pets with a greater weight than 10", "pets heavier than
// 10", "singers above the average age", "older than average" and "more
// than a single document" say a comparison in words the walk does not
// read as one. comparatives rewrites each into the comparison it means,
// in the order the walk reads ("weight more than 10", "age above the
// average", "more than 1 document"), so that nothing new is read: the
// comparison applies to the column named, or to the one the adjective
// names (heavier: the weight), where the knowledge has one.

// comparative is what an adjective's comparative form compares: the
// direction, and the qualities it names when no column is said.
type comparative struct {
	kw        string   // "gt" or "lt"
	qualities []string // "weight", "mass": the column of "heavier than 10"
}

// comparativeOf is what the comparative adjective w compares, if it is
// one.
func comparativeOf(w string) (comparative, bool) {
	switch w {
	case "greater", "larger", "bigger", "higher":
		return comparative{kw: "gt"}, true
	case "smaller", "lower":
		return comparative{kw: "lt"}, true
	case "heavier":
		return comparative{kw: "gt", qualities: []string{"weight", "mass"}}, true
	case "lighter":
		return comparative{kw: "lt", qualities: []string{"weight", "mass"}}, true
	case "taller":
		return comparative{kw: "gt", qualities: []string{"height"}}, true
	case "shorter":
		return comparative{kw: "lt", qualities: []string{"height", "length"}}, true
	case "longer":
		return comparative{kw: "gt", qualities: []string{"length", "duration"}}, true
	case "wider":
		return comparative{kw: "gt", qualities: []string{"width"}}, true
	}
	return comparative{}, false
}

func (p *Planner) comparatives(items []item) []item {
	var out []item
	next := func(i int) int { // the next item after i that is no stopword, or len(items)
		for j := i + 1; j < len(items); j++ {
			if items[j].kind != itStop {
				return j
			}
		}
		return len(items)
	}
	at := func(i int, kind itemKind, text string) bool {
		return i < len(items) && items[i].kind == kind && (text == "" || items[i].text == text)
	}
	// What "than" compares with: a number, or the average ("than the
	// average", "than average").
	against := func(i int) bool { return at(i, itNum, "") || at(i, itKw, "") && items[i].kw == "avg" }
	for i := 0; i < len(items); i++ {
		it := items[i]
		c, isComp := comparativeOf(it.text)
		isComp = isComp && it.kind == itUnknown
		switch j := next(i); {
		case isComp && at(j, itUnknown, "than") && against(next(j)):
			// "weight is heavier than 10", "heavier than 10".
			op := compared(c.kw)
			if !termSaid(out) {
				t, ok := p.quality(c.qualities)
				if !ok {
					out = append(out, it)
					continue
				}
				out = append(out, t)
			}
			out = append(out, op)
			i = j
		case isComp && at(j, itTerm, "") && at(next(j), itUnknown, "than") && against(next(next(j))):
			// "a greater weight than 10": the column, then the comparison.
			out = append(out, items[j], compared(c.kw))
			i = next(j)
		case it.kind == itKw && (it.kw == "gt" || it.kw == "lt") && !termSaid(out) && at(j, itKw, "") && items[j].kw == "avg" && at(next(j), itTerm, "") && numericColumn(items[next(j)].senses) && !said(out, items[next(j)]):
			// "singers above the average age": the age, above its
			// average ("a price above the average price" says it first).
			out = append(out, items[next(j)], it, items[j])
			i = next(j)
		case it.kind == itKw && (it.kw == "agegt" || it.kw == "agelt") && at(j, itKw, "") && items[j].kw == "avg" && (next(j) == len(items) || !at(next(j), itTerm, "")):
			// "older than average": the age above its average.
			t, ok := p.quality([]string{"age"})
			if !ok {
				out = append(out, it)
				continue
			}
			out = append(out, t, compared(strings.TrimPrefix(it.kw, "age")), items[j])
			i = j
		case it.kind == itKw && (it.kw == "gt" || it.kw == "lt") && at(j, itUnknown, "single"):
			// "more than a single document": more than 1.
			out = append(out, it, item{kind: itNum, num: 1, text: "a single"})
			i = j
		default:
			out = append(out, it)
		}
	}
	return out
}

// compared is the comparison kw ("gt" or "lt") as the walk reads it:
// "more than", "less than".
func compared(kw string) item {
	if kw == "lt" {
		return bound("lt", "less than")
	}
	return bound("gt", "more than")
}

// termSaid reports whether the last item said, stopwords aside, is a
// number column: "weight is heavier than 10" names its column, "pets
// heavier than 10" does not.
func termSaid(out []item) bool {
	for j := len(out) - 1; j >= 0; j-- {
		if out[j].kind != itStop {
			return out[j].kind == itTerm && numericColumn(strongest(out[j].senses))
		}
	}
	return false
}

// said reports whether a term of the same words as t comes in out: "a
// population that is above the average population" names it before.
func said(out []item, t item) bool {
	for _, o := range out {
		if o.kind == itTerm && o.text == t.text {
			return true
		}
	}
	return false
}

// quality is the term of the first of words the knowledge knows as a
// number column ("weight"), for a comparative that names no column.
func (p *Planner) quality(words []string) (item, bool) {
	for _, w := range words {
		if s, ok := p.lex.get(w); ok && numericColumn(s) {
			return item{kind: itTerm, text: w, senses: s}, true
		}
	}
	return item{}, false
}

// averageOfSomeRE finds an average said of some rows: "above the average
// salary of employees who work in Denver".
var averageOfSomeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bthe (?:average|mean)(?: \w+){0,2} (?:of|among|for) (?:\w+ )?(?:who|that|which|with|in|from|whose|at)\b`)
})

// averageOfSome refuses a comparison with an average the question says of
// some rows only, where the plan keeps other conditions too: the filters
// are the compared rows', and the average is of every row (found from
// outside: "a salary above the average salary of employees who work in
// Denver" put Denver on the rows counted, 23 for 82, at full confidence).
func averageOfSome(question string, pl *Plan) *Plan {
	if pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return nil
	}
	against, others := false, false
	for _, f := range pl.Query.Filters {
		if f.Against != "" {
			against = true
		} else {
			others = true
		}
	}
	if !against || !others || !averageOfSomeRE().MatchString(strings.ToLower(question)) {
		return nil
	}
	return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Reason: "the question compares with an average of some rows only, and quarry takes the average of all of them; ask for that average on its own, then compare with the figure"}
}
