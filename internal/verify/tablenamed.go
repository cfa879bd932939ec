package verify

import "strings"

// readsTableNamed reports whether lv, a word of the question, is the
// noun of a table whose rows the query's rows must have, or lack, or
// count ("accounts with an active subscription": the subscriptions), not
// a value of another table's column spelt alike (invoice_lines.line_type
// 'subscription'; found from outside: the answer refused for it). Not
// the table measured: "average rating at the interview stage" still
// asks for the stage, though the ratings are the interviews'.
func (c *cover) readsTableNamed(lv string) bool {
	named := func(table string) bool {
		t := strings.ToLower(table)
		return t == lv || t == lv+"s" || t == lv+"es"
	}
	for _, f := range c.q.Filters {
		if f.OnRelated() && named(f.Field) {
			return true
		}
	}
	return false
}

// groupsTableNamed reports whether v, a value the question holds, is
// written as the noun of a table the query groups by: "loans by branch"
// groups by the branches, not the channel 'branch' of the loans'
// applications (found from outside, on a credit union: every grouping
// by branch refused for it). A value with capitals written as it is
// ("admissions by Ward") is the value (namesTable).
func (c *cover) groupsTableNamed(v string) bool {
	lv := strings.ToLower(v)
	if lv != v && strings.Contains(c.raw, v) {
		return false
	}
	for _, d := range c.q.Dimensions {
		ent, _, ok := strings.Cut(d.Name, ".")
		if t := strings.ToLower(ent); ok && (t == lv || t == lv+"s" || t == lv+"es") {
			return true
		}
	}
	return false
}
