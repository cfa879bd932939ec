package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckUndated is the check that a figure for a period leaves out few
// rows for having no date.
const CheckUndated = "undated_rows"

// The control's measures: the rows of the date's table, and those of them
// whose date is empty.
const (
	undatedAll  = "quarry_all_rows"
	undatedNone = "quarry_undated_rows"
)

// undatedShare is the share of rows without a date above which a figure
// for a period warns.
const undatedShare = 0.05

// UndatedCheck counts, where a query keeps its measure to a period (a
// time range or compared periods), the rows of the table whose date the
// period is applied to that have no date at all: no period holds them, so
// the figure leaves them out whatever the period (found from outside:
// "how many class bookings were made in 2025" said 1,344 with no word,
// where a third of the bookings had no booking date). Only the date that
// dates the table's rows (its time column) is read: another date is that
// of something that happens to some rows. The control counts the rows
// the query's filters pick and those of them with the date empty,
// through the guard. Over 5% warns, naming how many and the control;
// fewer passes. Empty when no period is asked or the control cannot run.
func (a *Analyst) UndatedCheck(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	if q == nil || a.Conn == nil || q.TimeRange == nil && len(q.Compare) == 0 || q.Rows != nil || len(q.Metrics) == 0 {
		return verify.Check{}
	}
	field := ""
	if q.TimeRange != nil {
		field = q.TimeRange.Field
	}
	if field == "" {
		mt := m.Metric(q.Metrics[0])
		if mt == nil {
			return verify.Check{}
		}
		field = m.MetricTime(mt)
	}
	fd, err := m.ResolveField(field)
	if err != nil || fd.Kind != semantic.FieldColumn || fd.Entity == nil || fd.Column == nil {
		return verify.Check{}
	}
	e, col := fd.Entity, fd.Column
	if !strings.EqualFold(e.TimeColumn, col.Name) {
		// A date of something that happens to some rows (dropped_on,
		// cancelled_at) is empty where it has not happened: those rows
		// are not left out, they are not asked of (found from outside).
		return verify.Check{}
	}
	ref := semantic.Ref(e.Name, col.Name)
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics),
		semantic.Metric{Name: undatedAll, Entity: e.Name, Expr: "COUNT(*)"},
		semantic.Metric{Name: undatedNone, Entity: e.Name, Expr: "SUM(CASE WHEN " + ref + " IS NULL THEN 1 ELSE 0 END)"})
	// The rows the question picks, in every period.
	res, c, ok := a.control(ctx, &mm, semantic.Query{Metrics: []string{undatedAll, undatedNone}, Filters: slices.Clone(q.Filters)}, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 2 {
		return verify.Check{}
	}
	all, ok1 := quarry.Float(res.Table.Rows[0][0])
	none, ok2 := quarry.Float(res.Table.Rows[0][1])
	if !ok1 || !ok2 || all == 0 {
		return verify.Check{}
	}
	date := strings.ReplaceAll(col.Name, "_", " ")
	if none/all > undatedShare {
		return verify.Check{Name: CheckUndated, Status: verify.Warn, Detail: fmt.Sprintf("%d of the %d %s (%.0f%%) have no %s, so no period holds them and the figure leaves them out (control query: %s)",
			int64(none), int64(all), e.Name, 100*none/all, date, c.SQL)}
	}
	return verify.Check{Name: CheckUndated, Status: verify.Pass, Detail: fmt.Sprintf("%d of the %d %s have no %s (control query: %s)", int64(none), int64(all), e.Name, date, c.SQL)}
}
