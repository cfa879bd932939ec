package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// firstDayName is the measure of beforeData's control: the first day of
// the period's date in the data.
const firstDayName = "quarry_first_day_held"

// beforeData refuses a plan whose one period ends before the first day
// its date holds: "how many invoices in 2020", where the invoices begin
// in 2023, would be a confident 0, though the rows of 2020 may be kept
// in another table (found from outside: 0 at 0.85, where
// invoices_archive, of the same columns, held 218). The message names
// the first day, and the tables that are copies of the measured one
// (semantic.Model.CopiesOf). "" where the period reaches the data, or
// the control cannot tell. Run only where the answer found nothing
// (noneFound): a period the data reaches has something or is a true 0.
func (a *Analyst) beforeData(ctx context.Context, m *semantic.Model, pl *planner.Plan) string {
	q := pl.Query
	if q == nil || q.TimeRange == nil || q.TimeRange.To == "" || len(q.Compare) > 0 || a.Conn == nil {
		return ""
	}
	field := rangeDate(m, q)
	ent, _, ok := strings.Cut(field, ".")
	e := m.Entity(ent)
	if !ok || e == nil {
		return ""
	}
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: firstDayName, Entity: e.Name, Expr: "MIN(" + field + ")"})
	res, _, ok := a.control(ctx, &mm, semantic.Query{Metrics: []string{firstDayName}}, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 || res.Table.Rows[0][0] == nil {
		return ""
	}
	first, ok := verify.DayOf(res.Table.Rows[0][0])
	if !ok || first.Format("2006-01-02") < q.TimeRange.To {
		return ""
	}
	why := fmt.Sprintf("%s holds no date before %s: the period asked for ends before the first of its rows, so quarry cannot tell a count of none from rows kept elsewhere", field, first.Format("2006-01-02"))
	if copies := m.CopiesOf(e.Name); len(copies) > 0 {
		if len(copies) > 5 {
			copies = append(copies[:5:5], fmt.Sprintf("%d more", len(copies)-5))
		}
		why += fmt.Sprintf("; %s, of the columns of %s, may hold them: ask of one by name", strings.Join(copies, ", "), e.Name)
	} else {
		why += fmt.Sprintf("; ask about a period from %s", first.Format("2006-01-02"))
	}
	return why
}

// noneFound reports whether a result holds nothing: no row, or rows whose
// every cell is empty or zero.
func noneFound(t *quarry.Table) bool {
	if t == nil {
		return true
	}
	for _, r := range t.Rows {
		for _, v := range r {
			if v == nil {
				continue
			}
			if n, ok := semantic.NumberOf(v); ok && n == 0 {
				continue
			}
			return false
		}
	}
	return true
}
