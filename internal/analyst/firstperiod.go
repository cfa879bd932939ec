package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// firstPeriodName is the control's measure: the first day of the data.
const firstPeriodName = "quarry_first_day"

// FirstPeriodCheck warns when a ranking of periods answers with the first
// period of the data and the data starts after that period's first day:
// "worst year for revenue" named 2023, whose orders start in July, as if
// it were a whole year (an outside tester's case). So does a series whose
// first row is such a period ("orders by week": a first week of two
// days), and compared periods of which one starts before the data
// ("revenue 2023 vs 2024 vs 2025": 2023 holds July to December only). A
// control query reads the first day of the measure's date (MIN, through
// the guard). It returns an empty check when the query is none of these,
// the periods are whole, or the control cannot run.
func (a *Analyst) FirstPeriodCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, answer *Result) verify.Check {
	if q == nil || a.Conn == nil || answer == nil || answer.Table == nil || len(q.Metrics) == 0 {
		return verify.Check{}
	}
	if len(q.Compare) > 0 {
		return a.comparedBeforeData(ctx, m, q)
	}
	ranking := len(q.Order) > 0 // cut by a limit, or sorted by the measure
	series := q.Limit == 0 && len(q.Order) == 0
	if len(q.Dimensions) != 1 || !ranking && !series {
		return verify.Check{}
	}
	d := q.Dimensions[0]
	switch d.Grain {
	case semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear:
	default:
		return verify.Check{}
	}
	measure := q.Metrics[0]
	if ranking {
		measure = q.Order[0].Field
	}
	first, c, ok := a.firstDay(ctx, m, measure)
	if !ok {
		return verify.Check{}
	}
	if tr := q.TimeRange; tr != nil && tr.From != "" {
		if from, err := time.Parse("2006-01-02", tr.From); err == nil && from.After(first) {
			return verify.Check{} // the range starts after the data: another check's
		}
	}
	start := d.Grain.Start(first)
	if !first.After(start) {
		return verify.Check{}
	}
	col := slices.IndexFunc(answer.Table.Columns, func(c2 quarry.Column) bool { return strings.EqualFold(c2.Name, d.Name) })
	if col < 0 {
		return verify.Check{}
	}
	for _, r := range answer.Table.Rows {
		day, ok := verify.DayOf(r[col])
		if !ok || !day.Equal(start) {
			continue
		}
		if series {
			// Worded as the series' other cut periods are, so that the
			// answer leaves it out of the change (verify.PartialDays).
			return verify.Check{Name: verify.CheckPartial, Status: verify.Warn, Detail: fmt.Sprintf("the first %s of the series (%s) starts before the data: it holds the days from %s only, so it is not like the whole ones after it (control query: %s)",
				d.Grain.Words(), start.Format("2006-01-02"), first.Format("2006-01-02"), c.SQL)}
		}
		return verify.Check{Name: verify.CheckPartial, Status: verify.Warn, Detail: fmt.Sprintf("the first %s of the data, %s, starts on %s, not on its first day, so it is ranked as if it were whole (control query: %s)",
			d.Grain.Words(), start.Format("2006-01-02"), first.Format("2006-01-02"), c.SQL)}
	}
	return verify.Check{}
}

// comparedBeforeData warns when a compared period starts before the
// first day of the measure's data: its figure holds only the days from
// then, and a change from it would be mostly the missing days.
func (a *Analyst) comparedBeforeData(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	first, c, ok := a.firstDay(ctx, m, q.Metrics[0])
	if !ok {
		return verify.Check{}
	}
	var parts []string
	for _, p := range q.Compare {
		from, err1 := time.Parse("2006-01-02", p.From)
		to, err2 := time.Parse("2006-01-02", p.To)
		if err1 != nil || err2 != nil || !from.Before(first) {
			continue
		}
		if !to.After(first) {
			parts = append(parts, fmt.Sprintf("%s %s", p.Label, verify.EndsBeforeData))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s %s: it holds the days from then only", p.Label, verify.StartsBeforeData, first.Format("2006-01-02")))
	}
	if len(parts) == 0 {
		return verify.Check{}
	}
	return verify.Check{Name: verify.CheckPartial, Status: verify.Warn, Detail: fmt.Sprintf("%s, so the figures are not like for like (control query: %s)", strings.Join(parts, "; "), c.SQL)}
}

// firstDay reads the first day of a measure's date (MIN, through the
// guard), with the control query that read it.
func (a *Analyst) firstDay(ctx context.Context, m *semantic.Model, measure string) (time.Time, *semantic.Compiled, bool) {
	mt := m.Metric(measure)
	if mt == nil || mt.Time == "" {
		return time.Time{}, nil, false
	}
	ent, _, ok := strings.Cut(mt.Time, ".")
	if !ok || m.Entity(ent) == nil {
		return time.Time{}, nil, false
	}
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: firstPeriodName, Entity: m.Entity(ent).Name, Expr: "MIN(" + mt.Time + ")"})
	res, c, ok := a.control(ctx, &mm, semantic.Query{Metrics: []string{firstPeriodName}}, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 {
		return time.Time{}, nil, false
	}
	first, ok := verify.DayOf(res.Table.Rows[0][0])
	return first, c, ok
}
