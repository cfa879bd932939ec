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

// asOfEnded keeps a condition that rows have had an event their own date
// marks ("closed accounts", "cards that have expired", "graduated
// students": that date is set) to the events on or before the as-of day,
// where the date holds later ones: a card whose expiry lies ahead has not
// expired, and an account closed after the as-of day was open on it
// (found from outside: every card counted as expired, and the accounts
// closed since counted as closed "as of" an earlier day, at 1.00). The
// condition that it has not happened (the date empty: "students who have
// not graduated") would need "or after that day" too, which a filter
// does not say: where the date holds later days, the question is refused
// with the reason. The control queries run through the guard; where one
// cannot run, pl is returned as it is.
func (a *Analyst) asOfEnded(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) (*planner.Plan, string) {
	q := pl.Query
	if q == nil || a.Conn == nil {
		return pl, ""
	}
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	later := map[string]float64{}
	heldLater := func(field string) bool {
		n, seen := later[field]
		if !seen {
			if v, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", next); ok {
				n = v
			}
			later[field] = n
		}
		return n > 0
	}
	var out *planner.Plan
	own := func() *planner.Plan {
		if out == nil {
			c := *q
			c.Filters = cloneFilters(q.Filters)
			cp := *pl
			cp.Query, cp.AdHoc = &c, slices.Clone(pl.AdHoc)
			cp.Notes = slices.Clone(pl.Notes)
			out = &cp
		}
		return out
	}
	for i, f := range q.Filters {
		if f.Count || f.OnRelated() || (f.Op != semantic.OpNotNull && f.Op != semantic.OpNull) || !dateField(m, f.Field) || !heldLater(f.Field) {
			continue
		}
		if f.Op == semantic.OpNull {
			ent, col, _ := strings.Cut(f.Field, ".")
			return pl, fmt.Sprintf("as of %s, quarry cannot tell which %s had no %s yet: %d have one after that day, and a filter cannot keep them with those that have none; ask for those with %s after %s, or as of today",
				asOf.Format("2006-01-02"), ent, col, int64(later[f.Field]), col, asOf.Format("2006-01-02"))
		}
		o := own()
		o.Query.Filters[i] = semantic.Filter{Field: f.Field, Op: semantic.OpLt, Values: []any{next}}
		o.Notes = append(o.Notes, endedNote(asOf, later[f.Field], f.Field))
	}
	for k, mt := range pl.AdHoc {
		if !slices.Contains(q.Metrics, mt.Name) {
			continue
		}
		for j, cond := range mt.Filters {
			field, ok := strings.CutSuffix(strings.TrimSpace(cond), " IS NOT NULL")
			if !ok || !dateField(m, field) || !heldLater(field) {
				continue
			}
			o := own()
			o.AdHoc[k].Filters = slices.Clone(o.AdHoc[k].Filters)
			o.AdHoc[k].Filters[j] = fmt.Sprintf("%s < '%s'", field, next)
			o.Notes = append(o.Notes, endedNote(asOf, later[field], field))
		}
	}
	if out == nil {
		return pl, ""
	}
	return out, ""
}

// dateField reports whether field (table.column) is a date column of the
// model.
func dateField(m *semantic.Model, field string) bool {
	ent, col, ok := strings.Cut(field, ".")
	if !ok {
		return false
	}
	e := m.Entity(ent)
	if e == nil {
		return false
	}
	c := e.Column(col)
	return c != nil && c.Temporal()
}

// endedNote says which rows asOfEnded left out.
func endedNote(asOf time.Time, n float64, field string) string {
	return fmt.Sprintf("as of %s: the %d rows whose %s is after it are left out, as it had not come yet", asOf.Format("2006-01-02"), int64(n), field)
}

// asOfStatus refuses, asked as of a day before today, a condition on the
// status rows hold now ("terminated employees", "confirmed bookings" as of
// 2025-06-30) where their table holds dates after that day: the rows went
// on changing, and their status is today's, not the day's (found from
// outside: 93 terminated for 64, and 0 confirmed bookings, at 1.00).
// Where nothing is dated after the day, the status is as it was then.
func (a *Analyst) asOfStatus(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) string {
	q := pl.Query
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	if q == nil || a.Conn == nil || next >= a.tomorrow() {
		return ""
	}
	for _, f := range q.Filters {
		if f.Count || f.OnRelated() {
			continue
		}
		ent, col, ok := strings.Cut(f.Field, ".")
		e := m.Entity(ent)
		if !ok || e == nil || !statusColumn(col) || e.Column(col) == nil {
			continue
		}
		// The dates of what happened to rows after they were made first
		// (termination_date), then the rows' own.
		dates := slices.DeleteFunc(slices.Clone(e.Columns), func(c semantic.Column) bool { return !c.Temporal() })
		slices.SortStableFunc(dates, func(x, y semantic.Column) int {
			return boolRank(strings.EqualFold(x.Name, e.TimeColumn)) - boolRank(strings.EqualFold(y.Name, e.TimeColumn))
		})
		for _, c := range dates {
			field := e.Name + "." + c.Name
			if n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", next); ok && n > 0 {
				return fmt.Sprintf("as of %s, quarry cannot tell which %s had that %s then: %s is each row's %s today, and %d rows have %s after that day; ask as of today",
					asOf.Format("2006-01-02"), e.Name, col, f.Field, col, int64(n), field)
			}
		}
	}
	return ""
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
