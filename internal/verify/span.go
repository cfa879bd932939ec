package verify

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// spanPeriod: "how many no-show reservations in March" (or by month),
// where a reservation is dated by the day it was booked but also spans a
// stay, from check_in to check_out, and the rows are picked by a state.
// The period was put on the day each row was made; the state may have
// come about in the span instead (found from outside: no-show
// reservations of March counted by booking date, at full confidence).
// Unless the question names the date it was read by ("booked in March"),
// the reading is refused with the dates to name. Rows picked by no state
// ("reservations in March") are those made then, as the reading says. A
// table whose own date is itself the start or the end of its span
// (subscriptions by started_at) has no other reading.
func (c *cover) spanPeriod() (ok, bad []string) {
	tr := c.q.TimeRange
	// A time grain on the rows' own date ("reservations by month") dates
	// them as a period does.
	if tr == nil && OwnGrain(c.m, c.q) == "" || len(c.q.Compare) > 0 {
		return nil, nil
	}
	var dated []string // entity.column the period was put on by default
	for _, name := range c.q.Metrics {
		if mt := c.m.Metric(name); mt != nil && mt.Entity != "" && countsRows(mt.Expr) {
			dated = append(dated, c.m.MetricTime(mt))
		}
	}
	if c.q.Rows != nil && len(c.q.Metrics) == 0 {
		if e := c.m.Entity(c.q.Rows.Entity); e != nil && e.TimeColumn != "" {
			dated = append(dated, e.Name+"."+e.TimeColumn)
		}
	}
	for _, tc := range dated {
		ent, col, found := strings.Cut(tc, ".")
		e := c.m.Entity(ent)
		if !found || e == nil || tr != nil && tr.Field != "" && !sameField(c.m, tr.Field, tc) {
			continue
		}
		own := e.Column(col)
		if own == nil || own.TimeRole == semantic.TimeRoleStart || own.TimeRole == semantic.TimeRoleEnd {
			continue
		}
		if c.namesColumn(e.Name, own) || c.namesEvent(e, own) {
			continue // "booked in March": the date is named
		}
		if !c.pickedByState(e) {
			// "reservations this year": made then, as the reading
			// says; a state (no_show) may have come about in the span.
			continue
		}
		start, end := c.spanOf(e, own.Name)
		if start == "" || end == "" {
			continue
		}
		return nil, []string{fmt.Sprintf("%s picked by their state in a period are read as those whose %s falls in it, but the state may have come about while each ran, from %s to %s; name the date (“%s %s in …”, or “%s with %s in …”)",
			e.Name, own.Name, start, end, strings.ReplaceAll(e.Name, "_", " "), spokenDate(own.Name), strings.ReplaceAll(e.Name, "_", " "), strings.ReplaceAll(start, "_", " "))}
	}
	return nil, nil
}

// pickedByState reports whether the query keeps e's rows by a state they
// are in: a condition on a status column or a yes/no column of e.
func (c *cover) pickedByState(e *semantic.Entity) bool {
	for _, f := range c.q.Filters {
		ent, col, ok := c.m.SplitField(f.Field)
		if !ok || !strings.EqualFold(ent, e.Name) || f.OnRelated() {
			continue
		}
		if cc := e.Column(col); cc != nil && (semantic.StatusName(cc.Name) || semantic.FlagName(cc.Name)) {
			return true
		}
	}
	return false
}

// spanOf is the start and the end date of e's rows other than own, that
// the policy admits: "" where e has not both.
func (c *cover) spanOf(e *semantic.Entity, own string) (start, end string) {
	for _, cc := range e.Columns {
		if !cc.Temporal() || strings.EqualFold(cc.Name, own) || c.m.IsRestricted(e.Name, cc.Name) {
			continue
		}
		// A row's created_at begins no span of what it records (found
		// from outside: berth bookings dated by departure, created_at to
		// cancelled_at read as a span, so "how many completed berth
		// bookings last month" was refused).
		switch {
		case cc.TimeRole == semantic.TimeRoleStart && start == "" && !semantic.EnteredName(cc.Name):
			start = cc.Name
		case cc.TimeRole == semantic.TimeRoleEnd && end == "":
			end = cc.Name
		}
	}
	return start, end
}

// spokenDate is a date column's name as a question says it: booked_at
// is "booked".
func spokenDate(col string) string {
	ws := strings.FieldsFunc(strings.ToLower(col), func(r rune) bool { return r == '_' || r == ' ' })
	for len(ws) > 1 && genericWords[ws[len(ws)-1]] || len(ws) > 1 && ws[len(ws)-1] == "dt" {
		ws = ws[:len(ws)-1]
	}
	return strings.Join(ws, " ")
}
