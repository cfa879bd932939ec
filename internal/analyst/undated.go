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

// undatedShareName is the control's one measure: the share of the rows
// whose date is empty, read in one pass over them.
const undatedShareName = "quarry_undated_share"

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
// of something that happens to some rows. The control reads, in one pass
// through the guard, the share of the rows the query's filters pick whose
// date is empty. Every one of them fails (the figure is empty whatever
// happened); over 5% warns, naming the share and the control; less
// passes. Empty when no period is asked or the control cannot run.
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
		semantic.Metric{Name: undatedShareName, Entity: e.Name, Expr: "AVG(CASE WHEN " + ref + " IS NULL THEN 1.0 ELSE 0.0 END)"})
	// The rows the question picks, in every period.
	res, c, ok := a.control(ctx, &mm, semantic.Query{Metrics: []string{undatedShareName}, Filters: slices.Clone(q.Filters)}, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 {
		return verify.Check{}
	}
	share, ok := quarry.Float(res.Table.Rows[0][0])
	if !ok {
		return verify.Check{} // no rows at all
	}
	date := strings.ReplaceAll(col.Name, "_", " ")
	if share >= 1 {
		// None of the rows picked has the date: every period holds none
		// of them, and the figure is empty whatever happened (found from
		// outside: "how many missed payments last month" said 0, the
		// missed ones having no paid_on, at 0.72).
		var others []string
		for _, c := range e.Columns {
			if c.Temporal() && !strings.EqualFold(c.Name, col.Name) && !m.IsRestricted(e.Name, c.Name) {
				others = append(others, c.Name)
			}
		}
		hint := ""
		if len(others) > 0 {
			hint = "; name another date of theirs for the period (" + strings.Join(others, ", ") + ")"
		}
		return verify.Check{Name: CheckUndated, Status: verify.Fail, Detail: fmt.Sprintf("none of the %s the question picks has a %s, so no period holds any of them and the figure is empty whatever happened%s (control query: %s)",
			e.Name, date, hint, c.SQL)}
	}
	if share > undatedShare {
		return verify.Check{Name: CheckUndated, Status: verify.Warn, Detail: fmt.Sprintf("%.0f%% of the %s have no %s, so no period holds them and the figure leaves them out (control query: %s)",
			100*share, e.Name, date, c.SQL)}
	}
	return verify.Check{Name: CheckUndated, Status: verify.Pass, Detail: fmt.Sprintf("%.1f%% of the %s have no %s (control query: %s)", 100*share, e.Name, date, c.SQL)}
}
