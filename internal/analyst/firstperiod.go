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
// it were a whole year (an outside tester's case). A control query reads
// the first day of the ranked measure's date (MIN, through the guard).
// It returns an empty check when the query is not such a ranking, the
// first period is whole, or the control cannot run.
func (a *Analyst) FirstPeriodCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, answer *Result) verify.Check {
	if q == nil || a.Conn == nil || q.Limit == 0 || len(q.Order) == 0 || len(q.Compare) > 0 || len(q.Dimensions) != 1 || answer == nil || answer.Table == nil {
		return verify.Check{}
	}
	d := q.Dimensions[0]
	switch d.Grain {
	case semantic.GrainWeek, semantic.GrainMonth, semantic.GrainQuarter, semantic.GrainYear:
	default:
		return verify.Check{}
	}
	mt := m.Metric(q.Order[0].Field)
	if mt == nil || mt.Time == "" {
		return verify.Check{}
	}
	ent, _, ok := strings.Cut(mt.Time, ".")
	if !ok || m.Entity(ent) == nil {
		return verify.Check{}
	}
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: firstPeriodName, Entity: m.Entity(ent).Name, Expr: "MIN(" + mt.Time + ")"})
	res, c, ok := a.control(ctx, &mm, semantic.Query{Metrics: []string{firstPeriodName}}, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 {
		return verify.Check{}
	}
	first, ok := dayOf(res.Table.Rows[0][0])
	if !ok {
		return verify.Check{}
	}
	if tr := q.TimeRange; tr != nil && tr.From != "" {
		if from, err := time.Parse("2006-01-02", tr.From); err == nil && from.After(first) {
			return verify.Check{} // the range starts after the data: another check's
		}
	}
	start := periodStart(d.Grain, first)
	if !first.After(start) {
		return verify.Check{}
	}
	col := slices.IndexFunc(answer.Table.Columns, func(c2 quarry.Column) bool { return strings.EqualFold(c2.Name, d.Name) })
	if col < 0 {
		return verify.Check{}
	}
	for _, r := range answer.Table.Rows {
		if day, ok := dayOf(r[col]); ok && day.Equal(start) {
			return verify.Check{Name: verify.CheckPartial, Status: verify.Warn, Detail: fmt.Sprintf("the first %s of the data, %s, starts on %s, not on its first day, so it is ranked as if it were whole (control query: %s)",
				d.Grain.Words(), start.Format("2006-01-02"), first.Format("2006-01-02"), c.SQL)}
		}
	}
	return verify.Check{}
}

// periodStart is the first day of the period of grain g that holds day.
func periodStart(g semantic.Grain, day time.Time) time.Time {
	y, mo, dd := day.Date()
	switch g {
	case semantic.GrainWeek:
		return time.Date(y, mo, dd-(int(day.Weekday())+6)%7, 0, 0, 0, 0, time.UTC)
	case semantic.GrainMonth:
		return time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
	case semantic.GrainQuarter:
		return time.Date(y, (mo-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	case semantic.GrainYear:
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y, mo, dd, 0, 0, 0, 0, time.UTC)
}

// dayOf reads a cell as a day: a time, or text that starts YYYY-MM-DD or
// is YYYY-MM or YYYY.
func dayOf(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		y, mo, d := x.Date()
		return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC), true
	case string:
		for _, layout := range []string{"2006-01-02", "2006-01", "2006"} {
			if len(x) >= len(layout) {
				if t, err := time.Parse(layout, x[:len(layout)]); err == nil && (len(x) == len(layout) || layout == "2006-01-02") {
					return t, true
				}
			}
		}
	case int64:
		if x >= 1000 && x <= 9999 {
			return time.Date(int(x), 1, 1, 0, 0, 0, 0, time.UTC), true
		}
	}
	return time.Time{}, false
}
