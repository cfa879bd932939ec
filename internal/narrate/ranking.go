package narrate

import (
	"slices"
	"sort"
)

// ranking is a ranking's sentence: the groups from the top (or the
// bottom), ties named together, and the rows with no group said after
// the named ones.
func (w writer) ranking(d, m column) string {
	ps := w.points(d, m)
	subj := w.subject(w.title())
	if len(ps) == 0 {
		return subj + ": " + humanize(m.Name) + " is NULL in every row."
	}
	if s, ok := w.tie(subj, ps); ok {
		return s
	}
	if len(ps) == 1 {
		return subj + ": " + ps[0].label + ", **" + ps[0].text + "**."
	}
	if rd := w.in.Reading; rd != nil && rd.Order == "" && len(rd.Measures) > 0 {
		// Not ranked by the measure (in the order of the groups): the
		// sentence names the largest, whatever the table's order, so that
		// an alphabetical first row is never read as the top.
		ps = slices.Clone(ps)
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].value > ps[j].value })
		// The rows with no value are no group that leads: "(no
		// accompanist) is largest with 1,147" read as one accompanist
		// (found from outside). They are said after the named ones.
		named := namedPoints(ps)
		s := lead(subj, named, "is largest with", "tie for the largest with")
		if w.total > int64(min(3, len(ps))) {
			s += "; " + plural(w.total, "row") + " in all"
		}
		return s + emptyGroups(named, ps) + "."
	}
	// The rows with no value of the grouping are no group that leads or
	// trails a ranking ("(no id) leads with 2,796" of the orders with no
	// courier, found from outside): the named ones are ranked, and the
	// empty group is said after them.
	all := ps
	ps = namedPoints(ps)
	n := min(3, len(ps))
	desc, asc := true, true
	for i := 1; i < len(ps); i++ {
		desc = desc && ps[i].value <= ps[i-1].value
		asc = asc && ps[i].value >= ps[i-1].value
	}
	var s string
	switch {
	case desc && !asc:
		s = lead(subj, ps, "leads with", "tie for the lead with")
	case asc && !desc:
		// With known groups that have no row, the lowest row is not the
		// lowest group: those have none.
		if dims, _ := w.split(); w.missingGroups(dims) != "" {
			s = lead(subj, ps, "is lowest of the groups with any, with", "tie for the lowest of the groups with any, with")
		} else {
			s = lead(subj, ps, "is lowest with", "tie for the lowest with")
		}
	default:
		s = subj + ": " + joinWords(entries(ps[:n]))
	}
	if w.total > int64(n) {
		s += "; " + plural(w.total, "row") + " in all"
	}
	return s + emptyGroups(ps, all) + "."
}

// namedPoints are the points of a grouping's values, without the rows
// that have none; all of them where every point or none has a value.
func namedPoints(ps []point) []point {
	named := slices.DeleteFunc(slices.Clone(ps), func(p point) bool { return p.cell == nil })
	if len(named) == 0 {
		return ps
	}
	return named
}

// emptyGroups says, after the named points ranked, the rows of all with
// no value of the grouping: "; (no courier): **2,796**".
func emptyGroups(named, all []point) string {
	if len(named) == len(all) {
		return ""
	}
	var s string
	for _, p := range all {
		if p.cell == nil {
			s += "; " + p.label + ": **" + p.text + "**"
		}
	}
	return s
}

// lead names the first of ordered points and the next up to three in
// all: "A leads with **15**, then B **12**". Points that share the first
// value are named together, never one before the other as if it led:
// "A and B tie for the lead with **15** each, then C **9**".
func lead(subj string, ps []point, one, tied string) string {
	k := 1
	for k < len(ps) && ps[k].value == ps[0].value {
		k++
	}
	var s string
	if k == 1 {
		s = subj + ": " + ps[0].label + " " + one + " **" + ps[0].text + "**"
	} else {
		labels := make([]string, min(k, 8))
		for i := range labels {
			labels[i] = ps[i].label
		}
		if k > 8 {
			labels = append(labels[:7], plural(int64(k-7), "other"))
		}
		s = subj + ": " + joinWords(labels) + " " + tied + " **" + ps[0].text + "** each"
	}
	if n := min(max(3, k+1), len(ps)); n > k {
		s += ", then " + joinWords(entries(ps[k:min(n, k+2)]))
	}
	return s
}

func entries(ps []point) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.label + " **" + p.text + "**"
	}
	return out
}
