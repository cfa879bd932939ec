package planner

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
	for _, t := range b.st.having {
		if t.aggName == name && aggregated(t) {
			return true
		}
	}
	return false
}
