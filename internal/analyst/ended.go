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
// Where no row came to a status after the day, by a date named for it,
// the status is as it was then.
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
		if !ok || e == nil || !semantic.StatusName(col) || e.Column(col) == nil {
			continue
		}
		// The dates of the statuses rows come to (termination_date of
		// 'terminated', check_out of 'checked_out', closed_on): one after
		// the day says rows changed status since. New rows after it (a
		// transfer sent later) do not, as the bound leaves them out.
		values := e.Column(col).Values
		dates := slices.DeleteFunc(slices.Clone(e.Columns), func(c semantic.Column) bool {
			return !c.Temporal() || strings.EqualFold(c.Name, e.TimeColumn) || !semantic.ClosingName(c.Name) && !statusDate(c.Name, values)
		})
		for _, c := range dates {
			field := e.Name + "." + c.Name
			// Days after today have not come: a row due to check out
			// next month has not changed status yet.
			n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", next)
			if ahead, ok2 := a.datedFrom(ctx, m, field, "COUNT("+field+")", a.tomorrow()); ok && ok2 {
				n -= ahead
			}
			if ok && n > 0 {
				return fmt.Sprintf("as of %s, quarry cannot tell which %s had that %s then: %s is each row's %s today, and %d rows have %s after that day; ask as of today",
					asOf.Format("2006-01-02"), e.Name, col, f.Field, col, int64(n), field)
			}
		}
	}
	return ""
}

// statusDate reports whether a date column is named for one of a status
// column's values: check_out for 'checked_out', termination_date for
// 'terminated' (their first words share five letters, or four where one is
// that short).
func statusDate(column string, values []string) bool {
	ws := semantic.NameWords(column)
	if len(ws) == 0 {
		return false
	}
	for _, v := range values {
		vs := semantic.NameWords(v)
		if len(vs) == 0 {
			continue
		}
		a, b := ws[0], vs[0]
		n := min(5, len(a), len(b))
		if n >= 4 && a[:n] == b[:n] {
			return true
		}
	}
	return false
}
