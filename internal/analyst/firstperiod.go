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
	first, ok := verify.DayOf(res.Table.Rows[0][0])
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
		if day, ok := verify.DayOf(r[col]); ok && day.Equal(start) {
			return verify.Check{Name: verify.CheckPartial, Status: verify.Warn, Detail: fmt.Sprintf("the first %s of the data, %s, starts on %s, not on its first day, so it is ranked as if it were whole (control query: %s)",
				d.Grain.Words(), start.Format("2006-01-02"), first.Format("2006-01-02"), c.SQL)}
		}
	}
	return verify.Check{}
}
