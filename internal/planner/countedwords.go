package planner

import (
	"slices"
	"strings"
)

// entityBefore reports whether the last term before the end of items
// that names a table names entity: the rows a participle after it is
// said of ("vouchers never redeemed", not "customers never ordered").
func entityBefore(items []*item, entity string) bool {
	for j := len(items) - 1; j >= 0; j-- {
		if items[j].kind != itTerm {
			continue
		}
		es := only(items[j].senses, sEntity)
		if len(es) == 0 {
			continue
		}
		return slices.ContainsFunc(es, func(s sense) bool { return strings.EqualFold(s.name, entity) })
	}
	return false
}

// countedNext reports whether term t, values alone (or beside them a
// date whose participle the word also is: completed), is followed right
// away, or after more values joined by and/or, by a term that names the
// values' own table: the rows a number before them counts.
func countedNext(t *term, mean []*item, i int) bool {
	if len(t.cands) == 0 || i+1 >= len(mean) {
		return false
	}
	// A past participle may also name a date ("completed": completed_at
	// of another table); what follows says which.
	if slices.ContainsFunc(t.cands, func(s sense) bool { return s.kind != sValue && !(s.kind == sColumn && s.temporal) }) {
		return false
	}
	of := func(n sense) bool {
		return n.kind == sEntity && slices.ContainsFunc(t.cands, func(v sense) bool { return v.kind == sValue && strings.EqualFold(v.entity, n.name) })
	}
	// "more than 3 completed or confirmed bookings": the values joined
	// by "and"/"or" before the table.
	for j := i + 1; j+1 < len(mean) && mean[j].kind == itKw && mean[j].kw == "and" && mean[j+1].kind == itTerm && len(only(mean[j+1].senses, sValue)) > 0; j += 2 {
		if j+2 < len(mean) && mean[j+2].kind == itTerm && slices.ContainsFunc(mean[j+2].senses, of) {
			return true
		}
	}
	return slices.ContainsFunc(mean[i+1].senses, of)
}
