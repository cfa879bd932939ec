package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// ownDateBound keeps the measured rows to what had happened by the as-of
// day where the question's period is on another table's date.
//
// "Revenue from customers who signed up in 2025", asked as of
// 2026-06-30, put the period on customers.signup_date and none on the
// orders: it added up the orders those customers placed after the day,
// $1,989,722.82 for $1,467,657.46, at 1.00 and "as of 2026-06-30"; so did
// "orders from customers who signed up in November", "tickets from
// customers who joined this year" and "revenue from products launched
// this year" (found from outside, seven answers of one cause). The
// period says which customers; the as-of day still says which orders
// had happened. The measured rows' own date is now cut at the day after
// it, as asOfBound and seriesAhead cut it where the question names no
// period:
//   - asked as of an earlier day, where rows are dated after it and none
//     after today (a date set ahead is left as it is, as asOfBound
//     leaves it);
//   - where rows are dated after today, unless the date is set ahead by
//     what it means or the question looks ahead (aheadDate), or the
//     rows are listed with their dates (as seriesAhead leaves them).
//
// A note says how many rows were left out. An end or a birth date is
// never cut; nor a derived measure whose parts are dated apart.
func (a *Analyst) ownDateBound(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time, question string) *planner.Plan {
	q := pl.Query
	if q == nil || q.TimeRange == nil || q.TimeRange.Field == "" || len(q.Compare) > 0 || a.Conn == nil {
		return pl
	}
	field := ownDate(m, q)
	period, ok := m.ColumnField(q.TimeRange.Field)
	own, ok2 := m.ColumnField(field)
	if field == "" || !ok || !ok2 || aheadDate(m, field, withoutValues(question, q)) {
		return pl
	}
	if strings.EqualFold(period.Entity.Name, own.Entity.Name) {
		// A date of the rows themselves says when too: a lease signed
		// in the period that starts later was still signed then.
		return pl
	}
	if c := own.Column; c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == semantic.TimeRoleBirth {
		return pl
	}
	next, tomorrow := asOf.AddDate(0, 0, 1).Format("2006-01-02"), a.tomorrow()
	ahead, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", tomorrow)
	if !ok {
		return pl
	}
	later := ahead
	switch {
	case ahead > 0 && q.Rows != nil:
		return pl // listed with their dates, as seriesAhead leaves them
	case ahead > 0:
		if next < tomorrow {
			later, ok = a.datedFrom(ctx, m, field, "COUNT("+field+")", next)
		}
	case next < tomorrow:
		later, ok = a.datedFrom(ctx, m, field, "COUNT("+field+")", next)
	}
	if !ok || later <= 0 {
		return pl
	}
	out := *pl
	cq := *q
	cq.Filters = append(slices.Clone(q.Filters), semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{next}})
	out.Query = &cq
	out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("as of %s: the rows with %s after it are left out (%d in all of %s); the period is on %s.%s, which says which rows are counted, not by when they happened",
		asOf.Format("2006-01-02"), field, int64(later), own.Entity.Name, period.Entity.Name, period.Column.Name))
	return &out
}

// ownDate is the date of the rows q measures: its measures' one date
// (each part of a derived one dated alike), or the listed table's; ""
// where there is none or several.
func ownDate(m *semantic.Model, q *semantic.Query) string {
	if e := rowsEntity(m, q); e != nil {
		if e.TimeColumn == "" {
			return ""
		}
		return e.Name + "." + e.TimeColumn
	}
	field := ""
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			return ""
		}
		t := metricDate(m, mt)
		if t == "" || field != "" && t != field {
			return ""
		}
		field = t
	}
	return field
}

// metricDate is the one date of mt's rows, a derived measure's where
// every part has the same; "" otherwise.
func metricDate(m *semantic.Model, mt *semantic.Metric) string {
	if mt.Derived == "" {
		return m.MetricTime(mt)
	}
	date := ""
	for _, name := range semantic.DerivedRefs(mt.Derived) {
		part := m.Metric(name)
		if part == nil {
			return ""
		}
		t := metricDate(m, part)
		if t == "" || date != "" && t != date {
			return ""
		}
		date = t
	}
	return date
}

// goneBefore leaves out of rows picked by what they have none of in a
// period ("trainers with no classes this month") those that a date of
// their own let go before the period began (a trainer who left in 2024):
// they could have had none then, and the answer would list them as idle
// (found from outside: 7 trainers for 3, four of them gone, at 1.00,
// while "how many trainers do we have" counted the current ones). The
// period is the one the condition puts on the related rows' date; each
// end that lets the rows go (semantic.HoldingEnd, time role end) must be
// empty or on or after its first day. The reading says so.
func goneBefore(m *semantic.Model, pl *planner.Plan) *planner.Plan {
	q := pl.Query
	if q == nil {
		return pl
	}
	e := rowsEntity(m, q)
	if e == nil && len(q.Metrics) == 1 {
		if mt := m.Metric(q.Metrics[0]); mt != nil && mt.Derived == "" {
			e = m.Entity(mt.Entity)
		}
	}
	if e == nil {
		return pl
	}
	from, to := "", ""
	for _, f := range q.Filters {
		if f.Op != semantic.OpNone {
			continue
		}
		for _, w := range f.Where {
			fd, ok := m.ColumnField(w.Field)
			if !ok || len(w.Values) != 1 || !fd.Column.Temporal() || strings.EqualFold(fd.Entity.Name, e.Name) {
				continue
			}
			s, ok := w.Values[0].(string)
			switch {
			case ok && w.Op == semantic.OpGe && (from == "" || s < from):
				from = s
			case ok && w.Op == semantic.OpLt && (to == "" || s > to):
				to = s
			}
		}
	}
	if from == "" {
		return pl
	}
	var added []semantic.Filter
	if c := e.Column(e.TimeColumn); to != "" && c != nil && c.Temporal() && c.TimeRole == semantic.TimeRoleStart && !m.IsRestricted(e.Name, c.Name) &&
		!slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, e.Name+"."+c.Name) }) {
		// "members who had no desk bookings last month": not those who
		// joined after it, who could have had none in it either (found
		// from outside: June's joiners counted among May's idle, 165
		// for 158, at 1.00).
		added = append(added, semantic.Filter{Field: e.Name + "." + c.Name, Op: semantic.OpLt, Values: []any{to}, OrNull: true})
	}
	for _, c := range e.Columns {
		if !c.Temporal() || c.TimeRole != semantic.TimeRoleEnd || !semantic.HoldingEnd(e.Name, c.Name) || m.IsRestricted(e.Name, c.Name) {
			continue
		}
		ref := e.Name + "." + c.Name
		if slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, ref) }) {
			continue // the question says of it already
		}
		added = append(added, semantic.Filter{Field: ref, Op: semantic.OpGe, Values: []any{from}, OrNull: true})
	}
	if len(added) == 0 {
		return pl
	}
	out := *pl
	cq := *q
	cq.Filters = append(slices.Clone(q.Filters), added...)
	out.Query = &cq
	var names []string
	for _, f := range added {
		if f.Op == semantic.OpLt {
			out.Notes = append(slices.Clone(out.Notes), fmt.Sprintf("the %s that began on or after %s (%s) are left out: not there yet, they could have none in the period", e.Name, to, f.Field))
			continue
		}
		names = append(names, f.Field)
	}
	if len(names) > 0 {
		out.Notes = append(slices.Clone(out.Notes), fmt.Sprintf("the %s let go before %s (%s) are left out: gone by then, they could have none in the period", e.Name, from, strings.Join(names, ", ")))
	}
	return &out
}
