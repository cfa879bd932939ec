package valueindex

import (
	"github.com/quarrydata/quarry/internal/planner"
)

// Names are the words that name a hit's table and column in questions.
type Names struct {
	Entity []string `json:"entity"` // the entity's name, its table and its synonyms
	Column []string `json:"column"` // the column's name and its synonyms
	// Label is set when the column is the entity's label: the one that
	// names a row.
	Label bool `json:"label,omitempty"`
}

// Hit is a stored value found in a question: the value, where it was
// found (words [Start, End) of the question) and the names of its column.
type Hit struct {
	Value      planner.Value
	Start, End int
	Names      Names
	// ID marks a value of a key or code column, matched exactly but for
	// case: its spellings are different rows.
	ID bool
}

// Narrow keeps, of the hits found at one place of the question in several
// columns, those whose table or column the question's other words name:
// in "customers in Springfield", Springfield is a customer's city and not
// a store's name. The table may be named anywhere in the question; the
// column only next to the value ("the city of Aberdeen", "whose city is
// Aberdeen", "Aberdeen city"). Of columns of one table, the one that names
// its rows (its label: a country's name over its local name) is meant.
// When no hit's names are in the question, or all of them are, every hit
// stays, and the planner asks which is meant.
// words are the question's words, lower case.
func Narrow(words []string, hits []Hit) []Hit {
	type span struct{ start, end int }
	groups := map[span][]int{}
	var order []span
	for i, h := range hits {
		k := span{h.Start, h.End}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	stems := make([]string, len(words))
	for i, w := range words {
		stems[i] = stem(w)
	}
	var out []Hit
	for _, k := range order {
		idx := groups[k]
		if distinctColumns(hits, idx) > 1 {
			idx = keep(idx, func(i int) bool {
				return mentioned(stems, hits[i].Names.Entity, 0, len(stems), k.start, k.end)
			})
		}
		if distinctColumns(hits, idx) > 1 {
			idx = keep(idx, func(i int) bool {
				return mentioned(stems, hits[i].Names.Column, k.start-4, k.end+2, k.start, k.end)
			})
		}
		if distinctColumns(hits, idx) > 1 && distinctEntities(hits, idx) == 1 {
			idx = keep(idx, func(i int) bool { return hits[i].Names.Label })
		}
		for _, i := range idx {
			out = append(out, hits[i])
		}
	}
	return out
}

// distinctColumns is the number of distinct columns among hits[idx].
func distinctColumns(hits []Hit, idx []int) int {
	seen := map[[2]string]bool{}
	for _, i := range idx {
		seen[[2]string{hits[i].Value.Entity, hits[i].Value.Column}] = true
	}
	return len(seen)
}

// distinctEntities is the number of distinct entities among hits[idx].
func distinctEntities(hits []Hit, idx []int) int {
	seen := map[string]bool{}
	for _, i := range idx {
		seen[hits[i].Value.Entity] = true
	}
	return len(seen)
}

// keep returns the indexes for which ok holds, unless none or all do.
func keep(idx []int, ok func(int) bool) []int {
	var out []int
	for _, i := range idx {
		if ok(i) {
			out = append(out, i)
		}
	}
	if len(out) == 0 || len(out) == len(idx) {
		return idx
	}
	return out
}

// mentioned reports whether one of names occurs as whole words in
// stems[from:to], outside the value's own words [skipFrom, skipTo).
func mentioned(stems []string, names []string, from, to, skipFrom, skipTo int) bool {
	from, to = max(from, 0), min(to, len(stems))
	for _, n := range names {
		nw := nameWords(n)
		if len(nw) == 0 {
			continue
		}
		for i := range nw {
			nw[i] = stem(nw[i])
		}
	next:
		for s := from; s+len(nw) <= to; s++ {
			if s < skipTo && s+len(nw) > skipFrom {
				continue
			}
			for j, w := range nw {
				if stems[s+j] != w {
					continue next
				}
			}
			return true
		}
	}
	return false
}
