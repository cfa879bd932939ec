package analyst

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/planner/dates"
	"github.com/quarrydata/quarry/internal/semantic"
)

// comingBare reads a month or quarter named without a year ("total
// amount due in July", "reservations for Q3") as the coming one, not the
// latest that has started, where it has not begun this year and the
// period is on a date set ahead that holds days after asOf: on June 30
// an amount due in July is next month's (found from outside, on a credit
// union: the installments due in July 2025 answered, at 1.00). A date
// of what happened (paid_at) keeps the latest July, and so does a month
// of this year that has begun ("due in May" on June 30).
func (a *Analyst) comingBare(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time, question string) *planner.Plan {
	q := pl.Query
	if q == nil || q.TimeRange == nil || len(q.Compare) > 0 || a.Conn == nil {
		return pl
	}
	tr := q.TimeRange
	from, err1 := time.Parse(time.DateOnly, tr.From)
	to, err2 := time.Parse(time.DateOnly, tr.To)
	if err1 != nil || err2 != nil || !to.Equal(from.AddDate(0, 1, 0)) && !to.Equal(from.AddDate(0, 3, 0)) {
		return pl
	}
	next := from.AddDate(1, 0, 0)
	if from.Year() >= asOf.Year() || from.After(asOf) || !next.After(asOf) || !bareSaid(question, asOf) {
		return pl
	}
	field := rangeDate(m, q)
	_, col, _ := strings.Cut(field, ".")
	// The day a row is for (reserved_for) is set ahead too (found from
	// outside: "reservations for July" on June 30 read as last July's).
	if field == "" || !aheadDate(m, field, question) && !semantic.DayFor(col) {
		return pl
	}
	// Rows dated after asOf, on a date its name says is set ahead: as of
	// today, what the question asks for; as of an earlier day, notBegun
	// then says whether any was set ahead by today, or refuses.
	if n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", asOf.AddDate(0, 0, 1).Format(time.DateOnly)); !ok || n <= 0 {
		return pl
	}
	c := *q
	c.TimeRange = &semantic.TimeRange{Field: tr.Field, From: next.Format(time.DateOnly), To: to.AddDate(1, 0, 0).Format(time.DateOnly)}
	out := *pl
	out.Query = &c
	was, is := strconv.Itoa(from.Year()), strconv.Itoa(next.Year())
	out.Period = strings.ReplaceAll(pl.Period, was, is)
	out.Title = strings.ReplaceAll(pl.Title, was, is)
	out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the period named without a year is the coming one, from %s: %s holds dates set ahead, some after %s", c.TimeRange.From, field, asOf.Format(time.DateOnly)))
	return &out
}

// bareSaid reports whether the one period the question names, as the
// planner's date parser reads it, is a month or a quarter with no year
// and no word placing it ("July", "Q3"; not "last July", "July 2025").
func bareSaid(question string, asOf time.Time) bool {
	rs := dates.FindAll(question, asOf)
	return len(rs) == 1 && dates.BareName(question[rs[0].Start:rs[0].End])
}
