package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// verbCounted folds a state said as the verb right before a count of
// related rows into that count: "couriers who delivered more than 300
// orders" counts the delivered orders, not every order beside having one
// delivered (found from outside: 80 couriers for 70, orders of every
// status counted toward the 300). The planner reads the verb as rows
// that must exist (some, with the state) and the count on its own; where
// the state's value is the word said right before the count's
// comparison, the state is the count's condition and the other filter
// goes. pl where no such pair is.
func (p *Planner) verbCounted(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || (pl.Kind != KindMetric && pl.Kind != KindRows) {
		return pl
	}
	q := pl.Query
	count, some := -1, -1
	for i, f := range q.Filters {
		switch {
		case f.Count && count < 0:
			count = i
		case f.Op == semantic.OpSome && some < 0:
			some = i
		}
	}
	if count < 0 || some < 0 || !strings.EqualFold(q.Filters[count].Field, q.Filters[some].Field) {
		return pl
	}
	c, s := q.Filters[count], q.Filters[some]
	var states []semantic.Filter
	for _, w := range s.Where {
		if slices.ContainsFunc(c.Where, func(o semantic.Filter) bool { return o.Field == w.Field && o.Op == w.Op }) {
			continue // the count's own condition already (test rows)
		}
		ent, col, ok := strings.Cut(w.Field, ".")
		if !ok || !strings.EqualFold(ent, s.Field) || w.Op != semantic.OpEq || len(w.Values) != 1 || !semantic.StatusName(col) {
			return pl
		}
		states = append(states, w)
	}
	if len(states) != 1 || !saidBeforeCount(question, fmt.Sprint(states[0].Values[0])) {
		return pl
	}
	out := *pl
	nq := *q
	nq.Filters = slices.Clone(q.Filters)
	c.Where = append(slices.Clone(c.Where), states[0])
	nq.Filters[count] = c
	nq.Filters = slices.Delete(nq.Filters, some, some+1)
	out.Query = &nq
	out.Understood = append(slices.Clone(pl.Understood), fmt.Sprintf("%q said of the %s counted: only those are counted", states[0].Values[0], display(s.Field)))
	return &out
}

// saidBeforeCount reports whether value is said right before the
// comparison of a count: "delivered more than 300", "completed at least
// 5", "cancelled fewer than 2".
func saidBeforeCount(question, value string) bool {
	toks := tokenize(question)
	for i := 0; i+1 < len(toks); i++ {
		if !strings.EqualFold(toks[i].s, value) {
			continue
		}
		switch toks[i+1].s {
		case "more", "fewer", "less", "over", "under", "at", "exactly", "between", "above", "below":
			return true
		}
	}
	return false
}
