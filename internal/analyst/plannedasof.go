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

// plannedAsOf counts the rows whose date field was set ahead as of asOf:
// those dated after today, or, as of an earlier day, those dated after it
// that were made by it (their ExistedBy: a lesson booked in June for
// July). A date the rows have no other date of making than is judged by
// today alone. ok is false where the control cannot run.
func (a *Analyst) plannedAsOf(ctx context.Context, m *semantic.Model, field string, asOf time.Time) (float64, bool) {
	count := "COUNT(" + field + ")"
	n, ok := a.datedFrom(ctx, m, field, count, a.tomorrow())
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	if !ok || n > 0 || next >= a.tomorrow() {
		return n, ok
	}
	by := madeBy(m, field)
	if by == "" {
		return n, ok
	}
	return a.datedWhere(ctx, m, field, count, next, semantic.Query{Filters: []semantic.Filter{{Field: by, Op: semantic.OpLt, Values: []any{next}}}})
}

// madeBy is the date the rows of field's table were made on (ExistedBy),
// where it is another date than field; "" otherwise.
func madeBy(m *semantic.Model, field string) string {
	ent, _, ok := strings.Cut(field, ".")
	if !ok {
		return ""
	}
	by := semantic.ExistedBy(m.Entity(ent))
	if by == "" || strings.EqualFold(by, field) {
		return ""
	}
	return by
}

// madeByTheDay keeps a period that runs past an earlier as-of day
// ("lessons scheduled for next month" as of June 30, "productions opening
// this year" run to December) to the rows made by that day: those booked
// later were not known then (found from outside: refused as a forecast,
// 202 lessons booked ahead for July). pl is returned as it is as of
// today, for a period over by the day, or where the rows have no date of
// making apart from the period's.
func (a *Analyst) madeByTheDay(m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	if q == nil || q.TimeRange == nil || len(q.Compare) > 0 {
		return pl
	}
	day, next := asOf.Format("2006-01-02"), asOf.AddDate(0, 0, 1).Format("2006-01-02")
	if q.TimeRange.To != "" && q.TimeRange.To <= next || next >= a.tomorrow() {
		return pl // a period over by the day, or asked as of today
	}
	by := madeBy(m, rangeDate(m, q))
	if by == "" || slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, by) }) {
		return pl
	}
	c := *q
	c.Filters = append(slices.Clone(q.Filters), semantic.Filter{Field: by, Op: semantic.OpLt, Values: []any{next}})
	o := *pl
	o.Query = &c
	o.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("as of %s: the rows made after it (%s) are left out, not known on that day", day, by))
	return &o
}
