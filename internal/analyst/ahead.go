package analyst

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// aheadName is the measure of the controls datedFrom runs: rows dated
// ahead, after the as-of day, or at all.
const aheadName = "quarry_rows_dated"

// periodAhead runs a plan's period to its own end where the planner cut
// it at the as-of day and the rows' date is one set ahead of time.
//
// "How many leases end this month" on December 1st: the planner ends the
// month with that day, as nothing after it has happened yet, and a replay
// as of an earlier day must not count what was recorded later. But a
// lease's end, an appointment or a concert is dated ahead, and the
// question asks for the whole month: the cut answered 0 where 19 leases
// end in December (found from outside on a learned property database).
// Such a date holds days after today, by the clock, which no date of
// something that has happened does: a control query counts them, and
// where there are some, the plan's range runs to the period's end, with a
// note that says so. Otherwise, or when the control cannot run, pl is
// returned as it is.
//
// Not every date that holds days after today is asked for whole: invoices
// scheduled to be issued later in the month have not been issued, and
// "how many invoices were issued in December" counted 162 of them beside
// the 34 issued (found from outside, at 1.00). The whole period is taken
// only where the date is one set ahead by what it means (aheadDate: an
// end, a due day, a time something is scheduled for) or the question
// says it looks ahead ("upcoming", "scheduled", "due"), and never where it
// speaks of what was ("were", "did"); otherwise the cut stands, with a
// note that rows dated after today are left out.
func (a *Analyst) periodAhead(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time, question string) *planner.Plan {
	if pl.PeriodEnd == "" || pl.Query == nil || a.Conn == nil {
		return pl
	}
	cut := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	if cut >= pl.PeriodEnd {
		return pl
	}
	// The date the period is on: the range's, or that of the bound of a
	// condition on related rows ("tenants whose lease ends this month").
	field := ""
	if tr := pl.Query.TimeRange; tr != nil && tr.To == cut {
		field = rangeDate(m, pl.Query)
	}
	walkCut(pl.Query.Filters, cut, func(f *semantic.Filter) {
		if field == "" {
			field = f.Field
		}
	})
	if n, ok := a.plannedAsOf(ctx, m, field, asOf); !ok || n <= 0 {
		return pl
	}
	// A share of the rows that came to a state ("share of flights
	// delayed in 2026") is of those that could have: the flights
	// scheduled after today have not flown, and are no part of it
	// (found from outside: 11.2% for 12.1%, at 1.00), unless the
	// question itself looks ahead.
	question = withoutValues(question, pl.Query)
	share := (pl.Query.Share || slices.ContainsFunc(pl.AdHoc, func(mt semantic.Metric) bool { return strings.HasPrefix(mt.Name, "share_of_") })) && !aheadDate(m, "", question)
	if !aheadDate(m, field, question) || share {
		out := *pl
		out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("%s holds dates after today, set ahead, which have not happened: the period is counted up to %s", field, asOf.Format("2006-01-02")))
		return &out
	}
	q := *pl.Query
	if tr := q.TimeRange; tr != nil && tr.To == cut && (tr.Field == "" || strings.EqualFold(tr.Field, field)) {
		c := *tr
		c.To = pl.PeriodEnd
		q.TimeRange = &c
	}
	q.Filters = cloneFilters(q.Filters)
	walkCut(q.Filters, cut, func(f *semantic.Filter) {
		if strings.EqualFold(f.Field, field) {
			f.Values = []any{pl.PeriodEnd}
		}
	})
	out := *pl
	out.Query = &q
	out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the period runs to %s, its end: %s holds dates set ahead (some after %s), which the question asks for", dayBefore(pl.PeriodEnd), field, asOf.Format("2006-01-02")))
	return &out
}

// rangeDate is the date a query's range is on: its own field, else its
// first measure's ("how many appointments this month"), else the listed
// rows' (found from outside: a range with no field was not read); for
// rows with no date of their own, the date of the row each belongs to
// (semantic.PartsDate: an order's lines are dated by the order, and its
// lines ordered after today are not sold yet; found from outside: "top 5
// products by quantity" took in the lines of orders placed after the
// day); "" where it has none.
func rangeDate(m *semantic.Model, q *semantic.Query) string {
	if q.TimeRange != nil && q.TimeRange.Field != "" {
		return q.TimeRange.Field
	}
	if len(q.Metrics) > 0 {
		if mt := m.Metric(q.Metrics[0]); mt != nil && mt.Derived == "" {
			if t := m.MetricTime(mt); t != "" {
				return t
			}
			return m.PartsDate(mt.Entity, nil)
		}
		return ""
	}
	if e := rowsEntity(m, q); e != nil && e.TimeColumn != "" {
		return e.Name + "." + e.TimeColumn
	} else if e != nil {
		return m.PartsDate(e.Name, nil)
	}
	return ""
}

// tomorrow is the day after today, by the analyst's clock.
func (a *Analyst) tomorrow() string { return a.now().AddDate(0, 0, 1).Format("2006-01-02") }

// datedFrom runs expr, a measure of the table of the date field, as a
// control query over the rows whose field is on or after from (every row
// where from is ""), through the guard, and returns its one number; ok is
// false where field names no table or the control cannot run (a
// restricted column is refused by the guard's policy).
func (a *Analyst) datedFrom(ctx context.Context, m *semantic.Model, field, expr, from string) (float64, bool) {
	return a.datedWhere(ctx, m, field, expr, from, semantic.Query{})
}

// datedWhere is datedFrom over the rows that also meet the conditions of
// where (its filters, and the tables it is joined through).
func (a *Analyst) datedWhere(ctx context.Context, m *semantic.Model, field, expr, from string, where semantic.Query) (float64, bool) {
	ent, _, ok := strings.Cut(field, ".")
	e := m.Entity(ent)
	if !ok || e == nil {
		return 0, false
	}
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: aheadName, Entity: e.Name, Expr: expr})
	q := semantic.Query{Metrics: []string{aheadName}, Filters: where.Filters, Via: where.Via}
	if from != "" {
		q.TimeRange = &semantic.TimeRange{Field: field, From: from}
	}
	res, _, ok := a.control(ctx, &mm, q, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 {
		return 0, false
	}
	return semantic.NumberOf(res.Table.Rows[0][0])
}

// rowsEntity is the entity a list query lists, or nil.
func rowsEntity(m *semantic.Model, q *semantic.Query) *semantic.Entity {
	if q.Rows == nil {
		return nil
	}
	return m.Entity(q.Rows.Entity)
}

// walkCut calls fn on each filter, at any depth of related rows'
// conditions, that ends a period at cut (field < cut).
func walkCut(fs []semantic.Filter, cut string, fn func(*semantic.Filter)) {
	for i := range fs {
		f := &fs[i]
		if f.Op == semantic.OpLt && len(f.Values) == 1 && f.Values[0] == cut {
			fn(f)
		}
		walkCut(f.Where, cut, fn)
	}
}

// cloneFilters copies filters and their related rows' conditions deep
// enough that walkCut may change them.
func cloneFilters(fs []semantic.Filter) []semantic.Filter {
	if fs == nil {
		return nil
	}
	out := slices.Clone(fs)
	for i := range out {
		out[i].Values = slices.Clone(out[i].Values)
		out[i].Where = cloneFilters(out[i].Where)
	}
	return out
}

// dayBefore is the day before day (2006-01-02), or day when it is no date.
func dayBefore(day string) string {
	if d, err := time.Parse("2006-01-02", day); err == nil {
		return d.AddDate(0, 0, -1).Format("2006-01-02")
	}
	return day
}

// rankedWhole ends a ranking of periods with the last whole one, where
// the planner cut the question's period at the as-of day: "which month
// this year had the most check-ins" on December 1st would set December's
// one day against whole months, and was refused (verify.CutPeriods;
// found from outside). The months ranked run to November, and a note
// says that December is left out because it is not over. A range that
// starts inside the period cut, or a plan that ranks no period, is
// returned as it is.
func rankedWhole(pl *planner.Plan) *planner.Plan {
	if pl.PeriodEnd == "" || pl.Query == nil || pl.Query.TimeRange == nil || len(pl.Query.Order) == 0 {
		return pl
	}
	tr := *pl.Query.TimeRange
	to, err1 := time.Parse("2006-01-02", tr.To)
	from, err2 := time.Parse("2006-01-02", tr.From)
	if err1 != nil || err2 != nil || tr.To >= pl.PeriodEnd {
		return pl
	}
	for _, d := range pl.Query.Dimensions {
		g := d.Grain
		if g == "" || g == semantic.GrainDay || g.Cyclic() {
			continue
		}
		start := g.Start(to)
		if start.Equal(to) || !start.After(from) {
			return pl
		}
		q := *pl.Query
		tr.To = start.Format("2006-01-02")
		q.TimeRange = &tr
		out := *pl
		out.Query = &q
		out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the %s that starts %s is left out of the ranking: it is not over (it holds the days to %s only)", g.Words(), start.Format("2006-01-02"), dayBefore(pl.Query.TimeRange.To)))
		return &out
	}
	return pl
}

// asOfBound ends a plan with no period at the as-of day where the
// question is asked as of an earlier day than today and the measure's
// date holds rows after it: "how many customers" as of 2026-06-15 counted
// the 160 who signed up later, and said "as of 2026-06-15" (found from
// outside, with rankings and totals like it, at 1.00). A date that holds
// days after today, set ahead of time, is left as it is: whether such a
// row was known on the as-of day, no date says. Otherwise, or when the
// controls cannot run, pl is returned as it is. The rows that conditions
// on other rows read are kept to the day with a period or without.
func (a *Analyst) asOfBound(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	if q == nil || len(q.Compare) > 0 || a.Conn == nil {
		return pl
	}
	measured := measuredName(m, q)
	next, tomorrow := asOf.AddDate(0, 0, 1).Format("2006-01-02"), a.tomorrow()
	if next >= tomorrow {
		// As of today: nothing after it has happened; rows still without
		// what they are to get leave out those called off all the same.
		if e := pendingEntity(m, q); e != nil && q.TimeRange == nil {
			return pendingLive(m, e, pl)
		}
		return pl
	}
	// Conditions on other rows ("customers with no orders", "students
	// with no enrollments") are of those rows as of the day too: kept to
	// it by their own date, where they have one, as the measured rows are
	// by theirs below (found from outside: fewer customers with no orders
	// as of May than today where only the customers were kept to May, and
	// students admitted after the day counted among those with none where
	// neither was).
	filters, bounded := slices.Clone(q.Filters), false
	for i, f := range filters {
		if !(f.Count || f.OnRelated() || len(f.Where) > 0) || boundedCount(f) || ofParent(m, measured, f) {
			continue
		}
		other := m.Entity(f.Field)
		if other == nil || other.TimeColumn == "" {
			continue // undated: every row of theirs, as there is no telling
		}
		if c := other.Column(other.TimeColumn); c == nil || c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == semantic.TimeRoleBirth {
			return pl // a date that may be set ahead: not cut
		}
		if startsFrom(m, other.Name, f.Where, next) {
			// "boats that arrive next month": the question names the
			// rows' period on a date of theirs, after the day; cut at the
			// day on their own date they are none (found from outside: 0
			// for 66, at 0.85, arrivals in July that depart before it).
			continue
		}
		if endsBy(m, other.Name, f.Where, next) {
			// "tenants who signed a lease in 2026": the leases are kept
			// to the day by the date the question names; a lease signed
			// then that starts later was still signed (found from
			// outside: bounded on the start too, 36 tenants dropped).
			continue
		}
		// Whether a row existed by the day: made by it, where its own
		// date is the event it was made for (found from outside:
		// customers with bookings made in June for July counted among
		// those who never booked, 163 for 70, at 0.85).
		filters[i].Where = append(slices.Clone(f.Where), semantic.Filter{Field: semantic.ExistedBy(other), Op: semantic.OpLt, Values: []any{next}})
		bounded = true
	}
	if bounded {
		c := *q
		c.Filters = filters
		out := *pl
		out.Query = &c
		out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("as of %s: the rows of the tables its conditions read are kept to it by their dates", asOf.Format("2006-01-02")))
		pl, q = &out, &c
	}
	if q.TimeRange != nil {
		// A period of the measured rows bounds them; the rows its
		// conditions read were kept to the day above (found from outside:
		// "customers who joined this year but never bought a ticket" left
		// out those who bought one after the day, 177 for 202, at 1.00).
		return pl
	}
	field, own := "", false // own: each measure by its own date
	if len(q.Metrics) > 0 {
		if mt := m.Metric(q.Metrics[0]); mt != nil {
			field = m.MetricTime(mt)
			if mt.Derived != "" {
				// "average revenue per customer": each part by its own
				// date (revenue by its orders', the customers by their
				// signup), the control on the first part's.
				field, own = derivedTime(m, mt), true
			}
		}
		for _, name := range q.Metrics[1:] {
			if mt := m.Metric(name); mt == nil || m.MetricTime(mt) != field || own {
				return pl // measures on different dates
			}
		}
	} else if e := rowsEntity(m, q); e != nil && e.TimeColumn != "" {
		field = e.Name + "." + e.TimeColumn
	}
	if field == "" && !own {
		// "total fines" of fines dated by their loans (found from
		// outside: every fine counted, as of an earlier day).
		field = pl.DatedBy
	}
	ent, col, ok := strings.Cut(field, ".")
	if !ok || m.Entity(ent) == nil {
		return pl
	}
	if e := m.Entity(ent); slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool {
		c, _, ok := comingFilter(m, f)
		return ok && c == e
	}) {
		// "total quoted amount of reserved rentals": rows kept to a state
		// still to come are dated ahead by what they are; those made by
		// the day are its (found from outside: the reservations whose
		// pickup had passed alone, 189,000 for 11,610,500, at 1.00).
		if by := semantic.ExistedBy(e); by != field {
			field = by
			ent, col, _ = strings.Cut(field, ".")
		}
	}
	pending := false
	if e := m.Entity(ent); !own && slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return pendingFilter(m, e, f) }) {
		// "how many lessons have no instructor": a state of the rows that
		// exist, those to come most of all; kept to the day by the date
		// each was made, not the day it takes place (found from outside:
		// the 27 lessons still to be staffed cut away, 10 for 37).
		if by := semantic.ExistedBy(e); by != field && by != "" {
			field, pending = by, true
			ent, col, _ = strings.Cut(field, ".")
		}
	}
	endDated := false
	if c := m.Entity(ent).Column(col); c != nil && c.TimeRole == "" && semantic.RunsOut(col) && !eventName(col) {
		return pl // the last day rows are valid (valid_until): no day they happened
	}
	if c := m.Entity(ent).Column(col); c != nil && (c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == semantic.TimeRoleBirth) {
		// An end dates the rows only where it is the table's own date and
		// every row has one (returns by returned_at: found from outside,
		// 19 returns after the day counted); an end that may be empty or
		// set ahead (a lease's) is not cut.
		if c.TimeRole == semantic.TimeRoleBirth || !strings.EqualFold(m.Entity(ent).TimeColumn, col) || !eventName(col) {
			return pl // an end set ahead: expires_on, due_date, end_date
		}
		endDated = true
	}
	e := m.Entity(ent)
	later, ok1 := a.datedFrom(ctx, m, field, "COUNT("+field+")", next)
	ahead, ok2 := a.datedFrom(ctx, m, field, "COUNT("+field+")", tomorrow)
	if ok1 && ok2 && later <= 0 && pending {
		return pendingLive(m, e, pl) // none made later: each row existed
	}
	if !ok1 || !ok2 || later <= 0 {
		return pl // none later, or the control failed
	}
	if ahead != 0 && slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, field) && f.Op == semantic.OpLt }) {
		return pl // kept to the day already, by seriesAhead
	}
	// Rows dated after today too (appointments booked ahead, a date set
	// ahead by what it means): as of an earlier day, those after it had
	// not happened either (found from outside: "how many treatments" as
	// of 2025-06-30, dated by their appointments, counted 2,642 for
	// 1,029).
	c := *q
	c.TimeRange = &semantic.TimeRange{Field: field, To: next}
	if own {
		c.TimeRange.Field = ""
	}
	out := *pl
	out.Query = &c
	rows := fmt.Sprintf("the %d rows with %s after it are", int64(later), field)
	if int64(later) == 1 {
		rows = fmt.Sprintf("the 1 row with %s after it is", field)
	}
	note := fmt.Sprintf("as of %s: %s left out", asOf.Format("2006-01-02"), rows)
	if field == pl.DatedBy {
		note = fmt.Sprintf("as of %s: the rows of the %d %s with %s after it are left out", asOf.Format("2006-01-02"), int64(later), ent, field)
	}
	if e.PrimaryKey != "" {
		// A row with no date is left out by the bound as by any period:
		// said, as no one can tell whether it was there then.
		undated, ok := a.datedFrom(ctx, m, field, "COUNT("+semantic.Ref(e.Name, e.PrimaryKey)+") - COUNT("+field+")", "")
		if endDated && (!ok || undated > 0) {
			return pl // rows not ended yet: the end does not date them
		}
		if ok && undated > 0 {
			note += fmt.Sprintf(", and so are the %d with no %s", int64(undated), field)
		}
	} else if endDated {
		return pl
	}
	out.Notes = append(slices.Clone(pl.Notes), note)
	if pending {
		return pendingLive(m, e, &out)
	}
	return &out
}

// eventName reports whether a date column's name says something happened
// then (returned_at, closed_on: a word in -ed), not when it is set to end
// (expires_on, due_date).
func eventName(column string) bool {
	for _, w := range nameWords(column) {
		if len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") {
			return true
		}
	}
	return false
}

// asOfToday notes, asked as of a day before today, a
// total or an average of what rows hold now — rows dated by when they
// began (accounts by the day opened), whose amounts change: "total
// balance" as of an earlier day is of the balances held today (found
// from outside: said "as of" that day with no word). The note is the
// plan's; no query runs.
func (a *Analyst) asOfToday(m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	if q == nil || len(q.Compare) > 0 || asOf.AddDate(0, 0, 1).Format("2006-01-02") >= a.tomorrow() {
		return pl
	}
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(") {
			continue
		}
		e := m.Entity(mt.Entity)
		if e == nil || e.TimeColumn == "" {
			continue
		}
		if c := e.Column(e.TimeColumn); c == nil || c.TimeRole != semantic.TimeRoleStart {
			continue
		}
		out := *pl
		out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("%s is measured on the values %s holds today: quarry has no history of them, so this is not what they were on %s", mt.Name, e.Name, asOf.Format("2006-01-02")))
		return &out
	}
	return pl
}

// asOfCounted bounds, asked as of a day before today, the rows a count
// filter counts ("customers who placed more than 15 orders", "airlines
// with at least 600 flights") to those dated up to that day, where their
// date holds later rows and none set ahead (found from outside: every
// order counted, "as of" an earlier day). A count that 0 passes ("fewer
// than 2 orders") is left as it is: the rows that did not exist then
// would pass it too.
func (a *Analyst) asOfCounted(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	if q == nil || a.Conn == nil || !slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return f.Count }) {
		return pl
	}
	next, tomorrow := asOf.AddDate(0, 0, 1).Format("2006-01-02"), a.tomorrow()
	if next >= tomorrow {
		return pl
	}
	c := *q
	c.Filters = slices.Clone(q.Filters)
	var notes []string
	for i := range c.Filters {
		f := &c.Filters[i]
		e := m.Entity(f.Field)
		if !f.Count || semantic.CountAdmitsZero(*f) || e == nil || e.TimeColumn == "" {
			continue
		}
		field := e.Name + "." + e.TimeColumn
		if slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return strings.EqualFold(w.Field, field) }) {
			continue // a period of its own
		}
		// Those made by the day, where each is dated by the event it was
		// made for (found from outside: "customers with more than 5
		// bookings" left out the bookings made for later sessions).
		field = semantic.ExistedBy(e)
		if col := e.Column(e.TimeColumn); col != nil && (col.TimeRole == semantic.TimeRoleEnd || col.TimeRole == semantic.TimeRoleBirth) {
			continue
		}
		later, ok1 := a.datedFrom(ctx, m, field, "COUNT("+field+")", next)
		ahead, ok2 := a.datedFrom(ctx, m, field, "COUNT("+field+")", tomorrow)
		if !ok1 || !ok2 || later <= 0 || ahead != 0 {
			continue
		}
		f.Where = append(slices.Clone(f.Where), semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{next}})
		notes = append(notes, fmt.Sprintf("as of %s: the %s counted are those with %s up to it", asOf.Format("2006-01-02"), e.Name, field))
	}
	if len(notes) == 0 {
		return pl
	}
	out := *pl
	out.Query = &c
	out.Notes = append(slices.Clone(pl.Notes), notes...)
	return &out
}

// boundedCount reports whether f is a count filter asOfCounted bounds at
// the as-of day (one 0 does not pass), which the measure's own bound
// does not change.
func boundedCount(f semantic.Filter) bool { return f.Count && !semantic.CountAdmitsZero(f) }

// startsFrom reports whether ws, conditions on rows of ent, keep them to
// a period that begins on or after day on one of ent's dates.
func startsFrom(m *semantic.Model, ent string, ws []semantic.Filter, day string) bool {
	for _, w := range ws {
		f, ok := m.ColumnField(w.Field)
		if !ok || !strings.EqualFold(f.Entity.Name, ent) || !f.Column.Type.IsTemporal() || len(w.Values) != 1 {
			continue
		}
		if v, isText := w.Values[0].(string); isText && (w.Op == semantic.OpGe || w.Op == semantic.OpGt) && v >= day {
			return true
		}
	}
	return false
}

// endsBy reports whether conditions ws on the rows of table ent end
// one of its dates before day (2006-01-02): a period on the date the
// question names ("signed a lease in 2026") that keeps them to the day
// already.
func endsBy(m *semantic.Model, ent string, ws []semantic.Filter, day string) bool {
	for _, w := range ws {
		f, ok := m.ColumnField(w.Field)
		if !ok || !strings.EqualFold(f.Entity.Name, ent) || !f.Column.Type.IsTemporal() || len(w.Values) != 1 {
			continue
		}
		v, isText := w.Values[0].(string)
		if isText && (w.Op == semantic.OpLt && v <= day || w.Op == semantic.OpLe && v < day) {
			return true
		}
	}
	return false
}

// measuredName is the table whose rows q measures or lists: its first
// metric's, or its rows'; "" where neither says.
func measuredName(m *semantic.Model, q *semantic.Query) string {
	if len(q.Metrics) > 0 {
		if mt := m.Metric(q.Metrics[0]); mt != nil {
			return mt.Entity
		}
	} else if e := rowsEntity(m, q); e != nil {
		return e.Name
	}
	return ""
}

// ofParent reports whether f is a condition on whether the measured rows
// have the one row of another table they refer to ("visits with no
// vet": visits.vet_id): a fact of the measured rows, not of other rows
// with dates of their own, so the bound on the measured rows' date still
// holds (found from outside: the visits with no vet counted past the
// as-of day), and the other row's own date bounds nothing: a donation to
// a campaign that starts later has a campaign (found from outside:
// "donations with no campaign" 366 for 283). Conditions on the other
// row (its owner not a test row) leave it the row referred to.
func ofParent(m *semantic.Model, measured string, f semantic.Filter) bool {
	if measured == "" || f.Count || f.Op != semantic.OpNone && f.Op != semantic.OpSome {
		return false
	}
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, measured) && strings.EqualFold(r.To, f.Field) && r.Cardinality == semantic.ManyToOne {
			return true
		}
	}
	return false
}

// derivedRefRE finds the metrics a derived metric names: {revenue}.
var derivedRefRE = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)

// derivedTime is the date of the first metric a derived one is made of
// that has one, where every such part's date holds no day after today
// (set ahead), else "".
func derivedTime(m *semantic.Model, mt *semantic.Metric) string {
	first := ""
	for _, sm := range derivedRefRE.FindAllStringSubmatch(mt.Derived, -1) {
		part := m.Metric(sm[1])
		if part == nil {
			return ""
		}
		t := m.MetricTime(part)
		if part.Derived != "" {
			t = derivedTime(m, part)
		}
		if t == "" {
			return ""
		}
		if first == "" {
			first = t
		}
	}
	return first
}

// setAheadInstead puts a period that starts after the as-of day, on a
// date of the rows' making that holds no day after today (a
// reservation's booked_at), on the one other date of those rows that
// does, by its role a start or by its name a plan (check_in,
// scheduled_for): "how many reservations do we have for next month" are
// the stays of next month (found from outside: refused as a forecast,
// though 79 were on the books). The reading says so. pl where there is
// no such date, or two.
func (a *Analyst) setAheadInstead(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	if q == nil || q.TimeRange == nil || a.Conn == nil || len(q.Compare) > 0 {
		return pl
	}
	tr := q.TimeRange
	if tr.From == "" || tr.From <= asOf.Format("2006-01-02") {
		return pl
	}
	field := rangeDate(m, q)
	ent, col, ok := strings.Cut(field, ".")
	e := m.Entity(ent)
	if !ok || e == nil {
		return pl
	}
	if n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", a.tomorrow()); !ok || n > 0 {
		return pl
	}
	var ahead []string
	for _, c := range e.Columns {
		if !c.Temporal() || strings.EqualFold(c.Name, col) || m.IsRestricted(e.Name, c.Name) || c.TimeRole != semantic.TimeRoleStart && semantic.PlanWord(c.Name) == "" {
			continue
		}
		f := e.Name + "." + c.Name
		if n, ok := a.datedFrom(ctx, m, f, "COUNT("+f+")", a.tomorrow()); ok && n > 0 {
			ahead = append(ahead, f)
		}
	}
	if len(ahead) != 1 {
		return pl
	}
	c := *q
	c.TimeRange = &semantic.TimeRange{Field: ahead[0], From: tr.From, To: tr.To}
	o := *pl
	o.Query = &c
	o.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the period is after %s: put on %s, the one date of %s set ahead (%s holds no day after today)", asOf.Format("2006-01-02"), ahead[0], e.Name, field))
	// What is called off will not happen: a cancelled stay is none of
	// next month's (found from outside: 11 of 90 cancelled).
	if f, note, ok := calledOff(m, e, q, false); ok {
		c.Filters = append(slices.Clone(q.Filters), f)
		o.Notes = append(o.Notes, note)
	}
	return &o
}

// calledOff is the condition that leaves out e's rows marked called off
// (cancelled, void, declined, withdrawn) by a status the query does not
// read already, with a note saying so; false where e has none.
func calledOff(m *semantic.Model, e *semantic.Entity, q *semantic.Query, past bool) (semantic.Filter, string, bool) {
	for _, col := range e.Columns {
		ref := e.Name + "." + col.Name
		if !semantic.StatusName(col.Name) || m.IsRestricted(e.Name, col.Name) || slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, ref) }) ||
			slices.ContainsFunc(q.Dimensions, func(d semantic.DimRef) bool { return strings.EqualFold(d.Name, ref) }) {
			continue
		}
		var off []any
		var said []string
		for _, v := range col.Values {
			if semantic.CalledOff(v) || past && semantic.NoShow(v) {
				off = append(off, v)
				said = append(said, "'"+v+"'")
			}
		}
		if len(off) > 0 {
			return semantic.Filter{Field: ref, Op: semantic.OpNotIn, Values: off, OrNull: true},
				fmt.Sprintf("the %s marked %s are left out: called off, they will not happen", e.Name, strings.Join(said, " or ")), true
		}
	}
	return semantic.Filter{}, "", false
}

// calledOffAhead leaves out, of a count whose period runs past today on
// a date set ahead ("how many appointments do we have next week", by
// scheduled_for), the rows called off (calledOff): a cancelled
// appointment is none of next week's (found from outside: 167 for 151,
// at 1.00). pl otherwise, and where the question names a status.
//
// So too of a period that is over, on the day the rows' thing takes place
// (closings.closed_on, showings.scheduled_at), not the day each was made
// (orders.ordered_at): a cancelled closing is no closing of last month
// (found from outside: 30 for 28, and every month of "closings by month
// last year" over, at 1.00).
func calledOffAhead(m *semantic.Model, pl *planner.Plan, asOf time.Time, planned func(field string) bool) *planner.Plan {
	q := pl.Query
	if q == nil || q.Rows != nil || len(q.Metrics) != 1 || (q.TimeRange == nil) == (len(q.Compare) == 0) {
		return pl
	}
	var to string
	if q.TimeRange != nil {
		to = q.TimeRange.To
	}
	for _, c := range q.Compare {
		// "appointments this month vs last month" as "how many
		// appointments last month" (found from outside: 197 for May
		// beside it, 171 asked alone): the periods' last end.
		to = max(to, c.To)
	}
	past := to <= asOf.AddDate(0, 0, 1).Format("2006-01-02")
	mt := m.Metric(q.Metrics[0])
	field := rangeDate(m, q)
	if mt == nil || mt.Derived != "" || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(") || len(mt.Filters) > 0 && !datesEvents(mt, field) {
		return pl
	}
	e := m.Entity(mt.Entity)
	if e == nil || !strings.HasPrefix(strings.ToLower(field), strings.ToLower(e.Name)+".") {
		return pl
	}
	events := datesEvents(mt, field) && planned(field)
	if past && !tookPlaceOn(e, field) && !events {
		return pl
	}
	f, note, ok := calledOff(m, e, q, past && events)
	if !ok {
		return pl
	}
	if past {
		note = strings.Replace(note, "they will not happen", "they did not take place", 1)
	}
	c := *q
	c.Filters = append(slices.Clone(q.Filters), f)
	o := *pl
	o.Query = &c
	o.Notes = append(slices.Clone(pl.Notes), note)
	return &o
}

// datesEvents reports whether mt counts the events field dates, the
// rows that have it ("check-ins": the bookings by check_in, the date
// set). Where that date is a plan (planned: it holds days after today,
// as a check-in booked ahead does), the event took place only where the
// row was not called off and not missed: a cancelled booking, or one
// whose guest never came, is no check-in (found from outside: "how many
// check-ins in June" counted 75 for 61). A start that holds no day ahead
// took place, whatever ended it since ("subscription starts in 2025").
func datesEvents(mt *semantic.Metric, field string) bool {
	return len(mt.Filters) == 1 && strings.EqualFold(strings.Join(strings.Fields(mt.Filters[0]), " "), field+" IS NOT NULL")
}
