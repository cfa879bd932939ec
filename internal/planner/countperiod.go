package planner

import (
	"fmt"
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
// it). It consumes the period, so that it is not applied again.
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
	if len(st.having) != 1 || len(st.datePos) != 1 || st.datePos[0] != st.having[0].pos+1 {
		return nil, false
	}
	field := ""
	if mt := b.p.m.Metric(metric); mt != nil {
		field = b.p.m.MetricTime(mt)
	} else if e := b.p.m.Entity(counted); e != nil && e.TimeColumn != "" {
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

// heldTitle is a filter as the title says it, with its column where the
// value is not one the knowledge lists for it: "orders with discount code
// web" is titled "discount code web", never "web", which reads as the web
// channel it is known in.
func (p *Planner) heldTitle(f semantic.Filter) string {
	t := filterTitle(f)
	if f.Op != semantic.OpEq || len(f.Values) != 1 {
		return t
	}
	v, ok := f.Values[0].(string)
	if !ok {
		return t
	}
	known := p.knownValuesOf(f.Field)
	if len(known) == 0 {
		return t
	}
	for _, k := range known {
		if strings.EqualFold(k, v) {
			return t
		}
	}
	return fmt.Sprintf("%s %s", display(fieldColumn(f.Field)), v)
}

// knownValuesOf are the values the knowledge lists for a field: a
// dimension's or a column's.
func (p *Planner) knownValuesOf(field string) []string {
	fl, err := p.m.ResolveField(field)
	if err != nil {
		return nil
	}
	switch fl.Kind {
	case semantic.FieldDimension:
		if len(fl.Dimension.Values) > 0 {
			return fl.Dimension.Values
		}
		if f2, err := p.m.ResolveField(fl.Dimension.Expr); err == nil && f2.Kind == semantic.FieldColumn {
			return f2.Column.Values
		}
	case semantic.FieldColumn:
		return fl.Column.Values
	}
	return nil
}
