package planner

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// countPeriod reads the one period of a condition on how many rows each
// row has ("customers with fewer than 2 orders in 2025") as conditions on
// the counted rows' own date, so that the count filter keeps the rows
// with none in the period as 0 (semantic.Filter.Count with Where), where
// a grouped count would drop them. It applies when the question names one
// period, right after the rows counted, and no date column of its own,
// and the counted rows have a date the measure is dated by. ok is false
// otherwise: the plan stays as it was (and the zero-groups rule refuses
// it). usePeriod consumes the period once the count filter is made.
func (b *builder) countPeriod(counted, metric string) (where []semantic.Filter, ok bool) {
	st := b.st
	if len(st.dates) != 1 {
		return nil, len(st.dates) == 0
	}
	for _, t := range st.terms {
		if t.role == "time" {
			return nil, false // "… opened in 2025": a date the question names
		}
	}
	// The period right after the rows counted ("fewer than 2 orders in
	// 2025"), not elsewhere ("customers who signed up in 2025 with fewer
	// than 2 orders": whose period is that?).
	// Two conditions are the bounds of a range on one table ("between 2
	// and 3 orders in 2025"): the period is after the second.
	n := len(st.having)
	if n == 0 || n > 2 || n == 2 && st.having[0].cands[0].name != st.having[1].cands[0].name {
		return nil, false
	}
	if len(st.datePos) != 1 || st.datePos[0] != st.having[n-1].pos+1 {
		return nil, false
	}
	field := ""
	if mt := b.p.m.Metric(metric); mt != nil {
		field = b.p.m.MetricTime(mt)
	} else if e := b.p.entity(counted); e != nil && e.TimeColumn != "" {
		field = e.Name + "." + e.TimeColumn
	}
	if ent, _, _ := strings.Cut(field, "."); field == "" || !strings.EqualFold(ent, counted) {
		return nil, false
	}
	r := st.dates[0]
	if r.From == "" && r.To == "" {
		return nil, false
	}
	if r.From != "" {
		where = append(where, semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{r.From}})
	}
	if r.To != "" {
		where = append(where, semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{r.To}})
	}
	return where, true
}

// usePeriod consumes the one period countPeriod put on the rows counted,
// once the condition is read as a count filter, so that it is not applied
// again.
func (b *builder) usePeriod() {
	r := b.st.dates[0]
	b.periodEnd = r.Cut // a period cut at the as-of day (Plan.PeriodEnd)
	b.und("time %s [%s, %s) on the rows counted", r.Label, r.From, r.To)
	b.title = append(b.title, r.Label)
	b.st.dates, b.st.datePos = nil, nil
}

// isDateValue reports whether v is a date written YYYY-MM-DD.
func isDateValue(v any) bool {
	s, ok := v.(string)
	if !ok || len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, r := range s {
		if i != 4 && i != 7 && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}
