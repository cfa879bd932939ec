package analyst

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// calledOffRate leaves out, of a rate of a state among a table's rows
// ("no-show rate by teacher": the share of lessons that were no-shows),
// the rows called off, as a count of those rows leaves them out: a
// cancelled lesson was never one a student could miss (found from
// outside, on a music school: cancelled lessons in each teacher's
// denominator). Not where the rate is of a state called off itself
// ("cancellation rate"), nor where the question names a status; only on
// rows that have a day their thing takes place (tookPlaceDay).
func calledOffRate(m *semantic.Model, pl *planner.Plan) *planner.Plan {
	q := pl.Query
	if q == nil || q.Rows != nil || len(q.Metrics) != 1 || q.Share {
		return pl
	}
	mt := stateRate(m, q)
	if mt == nil {
		return pl
	}
	e := m.Entity(mt.Entity)
	if tookPlaceDay(e) == "" {
		return pl
	}
	f, note, ok := calledOff(m, e, q, false)
	if !ok {
		return pl
	}
	for _, v := range f.Values {
		if rateOf(mt, fmt.Sprint(v)) {
			return pl // the rate of a state called off: "cancellation rate"
		}
	}
	c := *q
	c.Filters = append(slices.Clone(q.Filters), f)
	o := *pl
	o.Query = &c
	o.Notes = append(slices.Clone(pl.Notes), strings.Replace(note, "they will not happen", fmt.Sprintf("they are none of the %s the rate is of", e.Name), 1))
	return &o
}

// stateRate is q's one metric where it is a rate of a state among its
// table's rows (SUM(CASE WHEN … THEN 1 …) / NULLIF(COUNT(…))), or nil.
func stateRate(m *semantic.Model, q *semantic.Query) *semantic.Metric {
	if q == nil || q.Rows != nil || len(q.Metrics) != 1 || q.Share {
		return nil
	}
	mt := m.Metric(q.Metrics[0])
	if mt == nil || mt.Derived != "" {
		return nil
	}
	x := strings.ToUpper(strings.Join(strings.Fields(mt.Expr), " "))
	if !strings.HasPrefix(x, "SUM(CASE WHEN ") || !strings.Contains(x, "/ NULLIF(COUNT(") {
		return nil
	}
	return mt
}

// attendedDay puts a rate of whether rows were attended (a no-show, a
// check-in: attendanceRate) on the day each row is for, where the rows
// are dated by the day each was made (booked_at) and the day each is for
// is another date (booked_for, tookPlaceDay): a no-show of last month is
// of a booking for a day of it, and a desk booked for next week can be no
// no-show yet, so the rows for a day after asOf are left out, with a
// period or without one (found from outside, on a coworking company:
// bookings for later days in each location's denominator, and with
// cancelled ones 9.2% for 11.8%). A grouping by the month of the rows'
// date goes on the day too. Not with compared periods.
func attendedDay(m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	mt := stateRate(m, q)
	if mt == nil || len(q.Compare) > 0 {
		return pl
	}
	e := m.Entity(mt.Entity)
	day := tookPlaceDay(e)
	if day == "" || day == e.TimeColumn || !attendanceRate(m, e, mt) {
		return pl
	}
	own, field := e.Name+"."+e.TimeColumn, e.Name+"."+day
	end := endBound(field, asOf)
	c := *q
	o := *pl
	o.Query = &c
	o.Notes = slices.Clone(pl.Notes)
	c.Dimensions = slices.Clone(q.Dimensions)
	for i, d := range c.Dimensions {
		if d.Grain != "" && strings.EqualFold(d.Name, own) {
			c.Dimensions[i].Name = field
		}
	}
	// "by month": the month of the day each is for, where the rate is
	// the plan's own (its time is the time a grain alone cuts by).
	o.AdHoc = slices.Clone(pl.AdHoc)
	for i := range o.AdHoc {
		if o.AdHoc[i].Name == mt.Name && (o.AdHoc[i].Time == "" || strings.EqualFold(o.AdHoc[i].Time, own)) {
			o.AdHoc[i].Time = field
		}
	}
	later := fmt.Sprintf("the %s for a day after %s are left out: none was attended or missed yet", e.Name, asOf.Format("2006-01-02"))
	switch tr := q.TimeRange; {
	case tr == nil:
		c.TimeRange = &semantic.TimeRange{Field: field, To: end}
		o.Notes = append(o.Notes, later)
	case tr.Field == "" || strings.EqualFold(tr.Field, own):
		c.TimeRange = &semantic.TimeRange{Field: field, From: tr.From, To: tr.To}
		o.Notes = append(o.Notes, fmt.Sprintf("the period is on %s, the day each of the %s is for: it is missed or attended on that day", field, e.Name))
		if tr.To == "" || tr.To > end {
			c.TimeRange.To = end
			o.Notes = append(o.Notes, later)
		}
	default:
		return pl
	}
	return &o
}

// tookPlaceDay is the column of e holding the day each row's thing takes
// place (tookPlaceOn): e's own date where it is that, else the one other
// date that is; "" where none or several are.
func tookPlaceDay(e *semantic.Entity) string {
	if e == nil || e.TimeColumn == "" {
		return ""
	}
	if tookPlaceOn(e, e.Name+"."+e.TimeColumn) {
		return e.TimeColumn
	}
	found := ""
	for _, c := range e.Columns {
		if !c.Temporal() || c.TimeRole != semantic.TimeRoleEvent || !tookPlaceOn(e, e.Name+"."+c.Name) {
			continue
		}
		if found != "" {
			return ""
		}
		found = c.Name
	}
	return found
}

// rateOf reports whether mt's expression names v as a quoted value.
func rateOf(mt *semantic.Metric, v string) bool {
	return strings.Contains(strings.ToLower(mt.Expr), "'"+strings.ToLower(v)+"'")
}

// attendanceRate reports whether mt is a rate of a status of e whose
// values it names are all of whether a row was attended (a no-show, a
// check-in: semantic.AttendanceOutcome).
func attendanceRate(m *semantic.Model, e *semantic.Entity, mt *semantic.Metric) bool {
	named := 0
	for _, col := range e.Columns {
		if !semantic.StatusName(col.Name) || m.IsRestricted(e.Name, col.Name) {
			continue
		}
		for _, v := range col.Values {
			if !rateOf(mt, v) {
				continue
			}
			if !semantic.AttendanceOutcome(v) {
				return false
			}
			named++
		}
	}
	return named > 0
}
