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

// notBegun refuses a plan whose period starts after the as-of day on a
// date of things that have happened: "orders next month" would be a
// confident 0, which reads as a forecast. On a date set ahead (renewals,
// appointments next month) the rows are there, and it is answered. It
// returns "" where the plan is answered, or the control cannot tell.
//
// Nor, on a date of a row's making (issued_on, placed_at), where the
// question asks what was ("how many invoices were issued in January
// 2027"): the rows dated then are set ahead, none made yet, and their
// number said as issued would be wrong (found from outside: "172
// invoices issued in January 2027", all scheduled, at 1.00). A question
// that looks ahead, or names a status, is answered.
func (a *Analyst) notBegun(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time, question string) string {
	q := pl.Query
	if q == nil || q.TimeRange == nil || a.Conn == nil {
		return ""
	}
	tr := q.TimeRange
	day := asOf.Format("2006-01-02")
	if tr.From == "" || tr.From <= day {
		return ""
	}
	field := rangeDate(m, q)
	n, ok := a.plannedAsOf(ctx, m, field, asOf)
	if !ok {
		return ""
	}
	if n > 0 {
		_, col, _ := strings.Cut(field, ".")
		if madeName(col) && saidAny(questionWords(question), pastWords) && !aheadDate(m, "", question) && !slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool {
			return statusNamed(f.Field) && (f.Op == semantic.OpEq || f.Op == semantic.OpIn)
		}) {
			return fmt.Sprintf("the period starts after %s, and %s is the day each row is made: those dated then are set ahead, none made yet; ask how many are scheduled for the period, or about a period up to %s", day, field, day)
		}
		return ""
	}
	return fmt.Sprintf("the period starts after %s, and %s holds no date after today: quarry reports what has happened, it does not forecast; ask about a period up to %s", day, field, day)
}

// statusNamed reports whether a field is a status column's.
func statusNamed(field string) bool {
	_, col, _ := strings.Cut(field, ".")
	return semantic.StatusName(col)
}
