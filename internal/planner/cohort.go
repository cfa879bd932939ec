package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

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
			b.periodOn(field, k)
			t.role = "filter"
			return
		}
	}
}

// periodOn makes the question's k-th period a condition on field, titled
// after the question's own period (datedField), and takes it out of the
// periods left to place.
func (b *builder) periodOn(field string, k int) {
	st, r := b.st, b.st.dates[k]
	if r.From != "" {
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{r.From}})
	}
	if r.To != "" {
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{r.To}})
	}
	b.und("filter %s in %s [%s, %s)", field, r.Label, r.From, r.To)
	b.datedField, b.datedLabel = field, strings.TrimSpace(r.Label)
	st.dates = append(st.dates[:k:k], st.dates[k+1:]...)
	st.datePos = append(st.datePos[:k:k], st.datePos[k+1:]...)
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

// signedUp reads the period said right after "signed up" as a condition
// on the start date of the table named before it (customers.signup_date,
// time role start; else the table's own date), where the question has
// another date to put a period on: a second period, a verb of another
// table's date, or a count of other rows. "How many customers signed up
// in 2025 and ordered in 2026" put 2025 on the orders, with "signed up"
// read past (924 where 298 customers did both; found from outside, with
// three more like it). With nothing else to date, the period stays the
// question's own, on the table's own date, as before. Where no table is
// named before it, or the table has no date, the question is refused
// rather than dated by something else.
func (b *builder) signedUp() *Plan {
	st := b.st
	for _, sp := range st.signedPos {
		k := slices.Index(st.datePos, sp+1)
		if k < 0 {
			continue
		}
		other := len(st.dates) > 1 || len(st.having) > 0
		var owner *term
		for _, t := range st.terms {
			if t.pos < sp && len(t.cands) > 0 && t.cands[0].kind == sEntity {
				owner = t
			}
			if t.pos > sp+1 && slices.ContainsFunc(t.cands, func(s sense) bool { return s.temporal || s.kind == sEntity }) {
				other = true
			}
		}
		if !other {
			continue
		}
		r := st.dates[k]
		if owner == nil {
			return b.fail(fmt.Sprintf("quarry could not tell whose signup %q is; name the table (“customers who signed up %s”)", r.Label, r.Label))
		}
		field := b.p.m.StartColumn(owner.cands[0].entity)
		if e := b.p.entity(owner.cands[0].entity); field == "" && e != nil && e.TimeColumn != "" {
			field = e.Name + "." + e.TimeColumn // the table's own date
		}
		if field == "" || r.From == "" && r.To == "" {
			return b.fail(fmt.Sprintf("%s has no date that says when a row signed up, so quarry cannot put %q on it", display(owner.cands[0].entity), r.Label))
		}
		b.periodOn(field, k)
		return nil
	}
	return nil
}

// periodAfterRows reads a period said right after the rows a list or a
// count is of, where the question also counts other rows of each ("events
// in 2025 with more than 30 ticket orders"), as a condition on those
// rows' own date: the events held in 2025, each with more than 30 orders
// of any date. The period went on the orders' date instead, listing the
// events with 30 orders placed in 2025 (18 where 24 events of 2025 had
// more than 30; found from outside). A period right after the rows
// counted ("customers with more than 5 orders in 2025") stays theirs.
func (b *builder) periodAfterRows() {
	st := b.st
	if len(st.dates) != 1 || len(st.having) == 0 || len(st.datePos) != 1 {
		return
	}
	for _, t := range st.terms {
		if t.pos+1 != st.datePos[0] || len(t.cands) == 0 || t.cands[0].kind != sEntity {
			continue
		}
		e := b.p.entity(t.cands[0].entity)
		if e == nil || e.TimeColumn == "" || e.Role != nil {
			return
		}
		for _, h := range st.having {
			if len(h.cands) > 0 && strings.EqualFold(h.cands[0].entity, e.Name) || h.pos < t.pos {
				return // the rows counted are these, or said before them
			}
		}
		r := st.dates[0]
		if r.From == "" && r.To == "" {
			return
		}
		b.periodOn(e.Name+"."+e.TimeColumn, 0)
		return
	}
}
