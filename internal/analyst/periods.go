package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// maxPeriods bounds the periods a periods control enumerates.
const maxPeriods = 5000

// periodsControl decides a ranking from the lowest (or a condition that
// admits zero) over one time grain ("which month last year had the fewest
// orders", "worst year for revenue"): the periods a grouping by the grain
// can return are a known set, the grain's periods that meet the query's
// range, or without one those from the first to the last day of the
// measure's date in the data (a control query, MIN and MAX). The same
// query without its order, limit and conditions on measures (which only
// drop groups that have rows) shows which periods have something to
// count; the periods missing from it have none. It reports ok = false
// when it cannot tell (not one time grain, measures of other rows, a
// control that cannot run, a period it does not expect).
func (a *Analyst) periodsControl(ctx context.Context, m *semantic.Model, q *semantic.Query, zs []verify.ZeroGroup) (control string, missing []string, ok bool) {
	if len(zs) != 1 || len(q.Dimensions) != 1 || len(q.Compare) > 0 || a.Conn == nil {
		return "", nil, false
	}
	d := q.Dimensions[0]
	switch d.Grain {
	case semantic.GrainDay, semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear:
	default:
		return "", nil, false
	}
	if !strings.EqualFold(zs[0].Dimension, d.Name) {
		return "", nil, false
	}
	// Every measure is of the counted rows, on the same date: a period
	// with a row of one has a row of all.
	var date string
	fields := slices.Clone(q.Metrics)
	for _, f := range q.Filters {
		if m.Metric(f.Field) != nil {
			fields = append(fields, f.Field)
		}
	}
	for _, o := range q.Order {
		if m.Metric(o.Field) != nil {
			fields = append(fields, o.Field)
		}
	}
	for _, name := range fields {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || m.MetricTime(mt) == "" || !strings.EqualFold(mt.Entity, zs[0].Counted) {
			return "", nil, false
		}
		if date == "" {
			date = m.MetricTime(mt)
		} else if !strings.EqualFold(date, m.MetricTime(mt)) {
			return "", nil, false
		}
	}
	// The periods and the range are of the measures' date.
	if date == "" || !onDate(m, d.Name, date) {
		return "", nil, false
	}
	if tr := q.TimeRange; tr != nil && tr.Field != "" && !onDate(m, tr.Field, date) {
		return "", nil, false
	}
	from, to, span, ok := a.periodSpan(ctx, m, q, date)
	if !ok {
		return "", nil, false
	}
	var expected []time.Time
	for p := d.Grain.Start(from); p.Before(to); p = d.Grain.End(p) {
		if expected = append(expected, p); len(expected) > maxPeriods {
			return "", nil, false
		}
	}
	all := *q
	all.Order, all.Limit, all.Hidden, all.Ties = nil, 0, nil, false
	all.Filters = nil
	for _, f := range q.Filters {
		if m.Metric(f.Field) == nil {
			all.Filters = append(all.Filters, f)
		}
	}
	res, c, ok := a.control(ctx, m, all, maxPeriods+1)
	if !ok || res.Table.Truncated {
		return "", nil, false
	}
	col := -1
	for i, oc := range c.Columns {
		if oc.Grain == d.Grain {
			col = i
			break
		}
	}
	if col < 0 {
		return "", nil, false
	}
	seen := map[time.Time]bool{}
	for _, r := range res.Table.Rows {
		if r[col] == nil {
			continue
		}
		day, ok := verify.DayOf(r[col])
		if !ok || !day.Equal(d.Grain.Start(day)) || !slices.ContainsFunc(expected, day.Equal) {
			return "", nil, false // not a period it expects: it cannot tell
		}
		seen[day] = true
	}
	for _, p := range expected {
		if !seen[p] {
			missing = append(missing, p.Format("2006-01-02"))
		}
	}
	return fmt.Sprintf("%d of the %d %ss %s have something to count (control query: %s)", len(seen), len(expected), d.Grain.Words(), span, c.SQL), missing, true
}

// periodSpan is the days whose periods a grouping by a grain can return:
// the query's range, or the first to the last day of date in the data.
func (a *Analyst) periodSpan(ctx context.Context, m *semantic.Model, q *semantic.Query, date string) (from, to time.Time, span string, ok bool) {
	if tr := q.TimeRange; tr != nil {
		f, err1 := time.Parse("2006-01-02", tr.From)
		t, err2 := time.Parse("2006-01-02", tr.To)
		if err1 != nil || err2 != nil || !f.Before(t) {
			return time.Time{}, time.Time{}, "", false
		}
		return f, t, fmt.Sprintf("from %s to %s", tr.From, t.AddDate(0, 0, -1).Format("2006-01-02")), true
	}
	ent, _, found := strings.Cut(date, ".")
	if !found || m.Entity(ent) == nil {
		return time.Time{}, time.Time{}, "", false
	}
	const first, last = "quarry_first_day", "quarry_last_day"
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics),
		semantic.Metric{Name: first, Entity: m.Entity(ent).Name, Expr: "MIN(" + date + ")"},
		semantic.Metric{Name: last, Entity: m.Entity(ent).Name, Expr: "MAX(" + date + ")"})
	res, c, ok := a.control(ctx, &mm, semantic.Query{Metrics: []string{first, last}}, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 2 {
		return time.Time{}, time.Time{}, "", false
	}
	f, ok1 := verify.DayOf(res.Table.Rows[0][0])
	l, ok2 := verify.DayOf(res.Table.Rows[0][1])
	if !ok1 || !ok2 || l.Before(f) {
		return time.Time{}, time.Time{}, "", false
	}
	return f, l.AddDate(0, 0, 1), fmt.Sprintf("from the data's first day of %s, %s, to its last, %s (control query: %s)", date, f.Format("2006-01-02"), l.Format("2006-01-02"), strings.ReplaceAll(c.SQL, "\n", " ")), true
}

// onDate reports whether a grouping or a range on field is one on date
// (entity.column): a bare grain (which takes the measure's date), the
// column itself, or a dimension that is that column.
func onDate(m *semantic.Model, field, date string) bool {
	if m.Dimension(field) == nil {
		switch semantic.Grain(field) {
		case "", "time", semantic.GrainDay, semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear:
			return true
		}
	}
	f, err := m.ResolveField(field)
	switch {
	case err != nil:
		return false
	case f.Kind == semantic.FieldDimension:
		return strings.EqualFold(strings.TrimSpace(f.Dimension.Expr), date)
	case f.Kind == semantic.FieldColumn:
		return strings.EqualFold(f.Entity.Name+"."+f.Column.Name, date)
	}
	return false
}
