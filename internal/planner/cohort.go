package planner

import "github.com/quarrydata/quarry/internal/semantic"

// datedRows reads, of two periods, the one said right after a date of
// other rows as a condition on that date: "revenue in 2025 from
// customers who signed up in 2024" is revenue in 2025 over the customers
// whose signup date is in 2024; "tickets closed in May that were opened
// in April", tickets closed in May with an opening date in April. The
// other period stays the question's own. Not with a comparison, a trend
// or growth (two periods of one measure), and only for a date said as
// one column (all the word's readings name one field).
func (b *builder) datedRows() {
	st := b.st
	if len(st.dates) != 2 || st.compare || st.growth || st.trend {
		return
	}
	for _, t := range st.terms {
		if t.role != "" || t.byMode || t.sortBy || len(t.aggs) > 0 || t.neg || len(t.cands) == 0 {
			continue
		}
		field := t.cands[0].field
		for _, s := range t.cands {
			if s.kind != sColumn && s.kind != sDim || !s.temporal || s.field != field {
				field = ""
			}
		}
		if field == "" {
			continue
		}
		for k, p := range st.datePos {
			r := st.dates[k]
			if p != t.pos+1 || r.From == "" || r.To == "" {
				continue
			}
			b.q.Filters = append(b.q.Filters,
				semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{r.From}},
				semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{r.To}})
			b.und("filter %s in %s [%s, %s)", field, r.Label, r.From, r.To)
			b.datedField, b.datedLabel = field, r.Label
			st.dates = append(st.dates[:k:k], st.dates[k+1:]...)
			st.datePos = append(st.datePos[:k:k], st.datePos[k+1:]...)
			t.role = "filter"
			return
		}
	}
}

// datedRowsTitle is the title of a period on other rows' date, after the
// question's own period: "from customers with signup date in 2024", or
// for the measured rows' own date "with opened at in April 2026".
func (b *builder) datedRowsTitle(field, label string) string {
	if t := b.otherRowsPeriod(field, label); t != label {
		return t
	}
	return "with " + display(fieldColumn(field)) + " " + inLabel(label)
}

// sameDate reports whether field is the date the question's own period
// is on: timeField, or with none every measure's own time.
func (b *builder) sameDate(field, timeField string) bool {
	col := func(f string) string {
		fl, ok := b.p.m.ColumnField(f)
		if !ok {
			return lower(f)
		}
		return lower(fl.Entity.Name + "." + fl.Column.Name)
	}
	if timeField != "" {
		return col(field) == col(timeField)
	}
	if b.rows {
		if e := b.p.entity(b.subject); e != nil && e.TimeColumn != "" {
			return col(field) == lower(e.Name+"."+e.TimeColumn)
		}
		return false
	}
	for _, m := range b.q.Metrics {
		if mt := b.metric(m); mt != nil && col(field) == lower(b.p.m.MetricTime(mt)) {
			return true
		}
	}
	return false
}
