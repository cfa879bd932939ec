package planner

// ranges rewrites a range of two numbers into the two comparisons it
// means, each on the column, measure or table it bounds, so that the walk
// reads them as it reads any comparison:
//
//   - "a capacity between 5000 and 10000": capacity at least 5000 and
//     capacity at most 10000;
//   - "between 1 and 2 paragraphs": at least 1 paragraphs and at most 2
//     paragraphs;
//   - "weighing no less than 3000 and no more than 4000": the second
//     bound on the weight again.
//
// "Between" is inclusive, as in SQL. A range whose bounds are written the
// other way round ("between 20 and 10") is the same range. Anything else
// is left as it is: "between" before dates is the dates parser's, and
// before words ("battles between Kaloyan and Baldwin") it is not a range.
func ranges(items []item) []item {
	var out []item
	for i := 0; i < len(items); i++ {
		it := items[i]
		if lo, hi, end, ok := betweenAt(items, i); ok {
			prev, next := rangeTermBefore(items, i), rangeTermAfter(items, end)
			if lo.num > hi.num {
				lo, hi = hi, lo
			}
			// "between 100 and 500 dollars": the unit said once is both
			// bounds' (found from outside: 100 was compared as cents and
			// 500 as dollars, one range of both).
			lo.money = lo.money || hi.money
			hi.money = lo.money
			lo.cents = lo.cents || hi.cents
			hi.cents = lo.cents
			switch {
			case next != nil && end < len(items) && items[end].kind == itTerm && !valuesOnly(next.senses):
				// "between 2 and 3 orders": the count of what follows.
				out = append(out, bound("gt", "at least"), lo, *next, conj(), bound("lt", "at most"), hi)
			case prev != nil:
				out = append(out, bound("gt", "at least"), lo, conj(), *prev, bound("lt", "at most"), hi)
			case next != nil:
				out = append(out, bound("gt", "at least"), lo, *next, conj(), bound("lt", "at most"), hi)
			default:
				out = append(out, it)
				continue
			}
			i = end - 1
			continue
		}
		if prev, ok := secondBound(items, i, out); ok {
			out = append(out, it, *prev)
			continue
		}
		out = append(out, it)
	}
	return out
}

// betweenAt reads "between A and B" at i, both numbers; end is the index
// after B.
func betweenAt(items []item, i int) (lo, hi item, end int, ok bool) {
	if items[i].text != "between" || items[i].kind == itKw || i+3 >= len(items) {
		return item{}, item{}, 0, false
	}
	a, c, b := items[i+1], items[i+2], items[i+3]
	if a.kind != itNum || b.kind != itNum || c.kind != itKw || c.text != "and" || a.pct || b.pct {
		return item{}, item{}, 0, false
	}
	return a, b, i + 4, true
}

// secondBound reads the "and" of "no less than 3000 and no more than
// 4000": a comparison whose number follows a comparison of a term, with
// no term of its own; it returns that term, to be said again after the
// "and". out holds the items rewritten so far.
func secondBound(items []item, i int, out []item) (*item, bool) {
	if items[i].kind != itKw || items[i].text != "and" || i+2 >= len(items) {
		return nil, false
	}
	if op := items[i+1]; op.kind != itKw || op.kw != "gt" && op.kw != "lt" || op.text == "or more" || op.text == "or less" {
		return nil, false
	}
	if items[i+2].kind != itNum || i+3 < len(items) && items[i+3].kind == itTerm {
		return nil, false
	}
	// Before the "and": term, comparison, number.
	var back []item
	for j := len(out) - 1; j >= 0 && len(back) < 3; j-- {
		if out[j].kind != itStop {
			back = append(back, out[j])
		}
	}
	if len(back) < 3 || back[0].kind != itNum || back[1].kind != itKw || back[1].kw != "gt" && back[1].kw != "lt" || back[2].kind != itTerm {
		return nil, false
	}
	t := back[2]
	return &t, true
}

// rangeTermBefore is the term right before i, stopwords aside, or nil.
func rangeTermBefore(items []item, i int) *item { return termFrom(items, i-1, -1) }

// rangeTermAfter is the term at or right after i, stopwords aside, or nil.
func rangeTermAfter(items []item, i int) *item { return termFrom(items, i, 1) }

// termFrom is the first item from j on in direction step (1 or -1) that
// is no stopword, if it is a term; else nil.
func termFrom(items []item, j, step int) *item {
	for ; j >= 0 && j < len(items); j += step {
		switch items[j].kind {
		case itStop:
			continue
		case itTerm:
			t := items[j]
			return &t
		}
		return nil
	}
	return nil
}

func bound(kw, text string) item { return item{kind: itKw, kw: kw, text: text} }

func conj() item { return item{kind: itKw, kw: "and", text: "and"} }
