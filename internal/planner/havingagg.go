package planner

import "slices"

// aggregated reports whether a term is a column said with one aggregate
// of its values other than a count ("average rating", "total cost"):
// compared with a number, the measure is compared, per row of the
// table grouped, not each of its values.
func aggregated(t *term) bool {
	if len(t.aggs) != 1 || t.aggs[0] == "count" {
		return false
	}
	k := t.cands[0].kind
	return k == sColumn || k == sDim
}

// comparedOnly reports whether the measure name is made of a column
// only to be compared ("government forms that have an average life
// expectancy above 72"): kept out of the answer's columns, as a count
// compared is.
func (b *builder) comparedOnly(name string) bool {
	compared := false
	for _, t := range b.st.terms {
		if t.aggName != name {
			continue
		}
		if !aggregated(t) || !slices.Contains(b.st.having, t) {
			// "the average life expectancy … for each continent where
			// the average life expectancy is below 72": asked for too.
			return false
		}
		compared = true
	}
	return compared
}
