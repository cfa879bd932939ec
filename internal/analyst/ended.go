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
	later := map[string]float64{}
	heldLater := func(field string) bool {
		n, seen := later[field]
		if !seen {
			if v, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", endBound(field, asOf)); ok {
				n = v
			}
			later[field] = n
		}
		return n > 0
	}
	// A period on the date itself says which rows count: "how many
	// memberships expire in 2027" is no question of those expired by
	// the as-of day (found from outside: read as both, 0 at 1.00).
	periodOn := func(field string) bool {
		return q.TimeRange != nil && strings.EqualFold(q.TimeRange.Field, field)
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
		if f.OnRelated() {
			// "tenants of terminated leases": the related row's end,
			// on or before the as-of day (found from outside: the 17
			// leases whose termination lies ahead counted, at 1.00);
			// "with a current manager": not ended by then. So too of
			// the rows a count counts or a condition wants none of:
			// "owners with more than 2 pets" as of June, those deleted
			// in July among them (found from outside: 115 for 119).
			for j, w := range f.Where {
				if w.Op != semantic.OpNotNull && w.Op != semantic.OpNull || !dateField(m, w.Field) || !heldLater(w.Field) {
					continue
				}
				o := own()
				o.Query.Filters[i].Where = slices.Clone(o.Query.Filters[i].Where)
				if w.Op == semantic.OpNotNull {
					o.Query.Filters[i].Where[j] = semantic.Filter{Field: w.Field, Op: semantic.OpLt, Values: []any{endBound(w.Field, asOf)}}
					o.Notes = append(o.Notes, endedNote(asOf, later[w.Field], w.Field))
					continue
				}
				o.Query.Filters[i].Where[j] = semantic.Filter{Field: w.Field, Op: semantic.OpGe, Values: []any{endBound(w.Field, asOf)}, OrNull: true}
				o.Notes = append(o.Notes, fmt.Sprintf("as of %s: the rows whose %s is after that day had not ended by then, and are kept", asOf.Format("2006-01-02"), w.Field))
			}
			continue
		}
		if f.Count || f.OnRelated() || (f.Op != semantic.OpNotNull && f.Op != semantic.OpNull) || !dateField(m, f.Field) || f.Op == semantic.OpNotNull && periodOn(f.Field) || !heldLater(f.Field) {
			continue
		}
		if f.Op == semantic.OpNull {
			// "currently" as of an earlier day: none yet, or one after
			// that day, which had not come (found from outside: refused,
			// with 6 terminations dated after the day).
			o := own()
			o.Query.Filters[i] = semantic.Filter{Field: f.Field, Op: semantic.OpGe, Values: []any{endBound(f.Field, asOf)}, OrNull: true}
			o.Notes = append(o.Notes, fmt.Sprintf("as of %s: the rows whose %s is after that day had not ended by then, and are kept", asOf.Format("2006-01-02"), f.Field))
			continue
		}
		o := own()
		o.Query.Filters[i] = semantic.Filter{Field: f.Field, Op: semantic.OpLt, Values: []any{endBound(f.Field, asOf)}}
		o.Notes = append(o.Notes, endedNote(asOf, later[f.Field], f.Field))
	}
	for k, mt := range pl.AdHoc {
		if !slices.Contains(q.Metrics, mt.Name) {
			continue
		}
		for j, cond := range mt.Filters {
			field, ok := strings.CutSuffix(strings.TrimSpace(cond), " IS NOT NULL")
			if !ok || !dateField(m, field) || periodOn(field) || !heldLater(field) {
				continue
			}
			o := own()
			o.AdHoc[k].Filters = slices.Clone(o.AdHoc[k].Filters)
			o.AdHoc[k].Filters[j] = fmt.Sprintf("%s < '%s'", field, endBound(field, asOf))
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
	return fmt.Sprintf("as of %s: the %d rows whose %s had not come by then are left out", asOf.Format("2006-01-02"), int64(n), field)
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
	// The columns of state the query keeps or groups by ("accounts by
	// status": found from outside, the same fault grouped).
	var fields []string
	// The values a status filter only leaves out, or keeps where rows
	// never leave them, by field: rows come into or out of the others by
	// any state (an invoice 'unpaid' then is 'paid' now), into or out of
	// "not void" or "void" by being voided.
	filterValues, kept, coming := map[string][]string{}, map[string]bool{}, map[string]bool{}
	for _, f := range q.Filters {
		if !f.Count && !f.OnRelated() {
			fields = append(fields, f.Field)
			key := strings.ToLower(f.Field)
			if _, _, ok := comingFilter(m, f); ok {
				coming[key] = true
			}
			switch {
			case f.Op == semantic.OpNe || f.Op == semantic.OpNotIn,
				// Rows in a state they never leave ('void', 'paid')
				// change only by coming into it.
				(f.Op == semantic.OpEq || f.Op == semantic.OpIn) && len(f.Values) > 0 && !slices.ContainsFunc(f.Values, func(v any) bool { return !finalState(fmt.Sprint(v)) }):
				for _, v := range f.Values {
					filterValues[key] = append(filterValues[key], fmt.Sprint(v))
				}
			default:
				kept[key] = true
			}
		}
		if f.Op == semantic.OpSome {
			// "customers who have an active subscription": the related
			// rows' status, today's too (found from outside).
			for _, w := range f.Where {
				if dim := m.Dimension(w.Field); dim != nil {
					fields = append(fields, dim.Expr)
				} else {
					fields = append(fields, w.Field)
				}
			}
		}
	}
	for _, d := range q.Dimensions {
		if dim := m.Dimension(d.Name); dim != nil {
			fields = append(fields, dim.Expr)
		} else {
			fields = append(fields, d.Name)
		}
	}
	// And those a measure keeps itself: MRR over the subscriptions whose
	// status is 'active' today (found from outside: asked as of June,
	// the subscriptions cancelled since were left out).
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			continue
		}
		for _, f := range mt.Filters {
			fields = append(fields, semantic.ColumnRefs(f)...)
			// "open tickets", closed_at IS NULL: those closed since
			// were open then (found from outside: 32 open as of June
			// for 70).
			if why := a.endedSince(ctx, m, f, asOf); why != "" {
				return why
			}
		}
	}
	for _, field := range fields {
		ent, col, ok := strings.Cut(field, ".")
		e := m.Entity(ent)
		if !ok || e == nil || e.Column(col) == nil {
			continue
		}
		// A status is named by its values' dates (termination_date of
		// 'terminated', check_out of 'checked_out'), a yes/no column by
		// its own name's (paid_on of paid).
		var names []string
		switch c := e.Column(col); {
		case semantic.StatusName(col):
			names = c.Values
		case yesNo(c.Values) && staticFlag(col):
			continue // a test row was one then too
		case yesNo(c.Values):
			names = []string{col}
		default:
			continue
		}
		// Of the rows that refer to these, where the query only leaves
		// values out, a date named for one of those: a payment's paid_at
		// may have made an invoice 'paid', not 'void' (found replaying an
		// outside tester's questions: invoice lines of invoices not void
		// refused for payments made since).
		named := names
		if vs, ok := filterValues[strings.ToLower(field)]; ok && !kept[strings.ToLower(field)] {
			named = vs
		}
		if why := a.changedSince(ctx, m, e, col, names, named, coming[strings.ToLower(field)], asOf); why != "" {
			return why
		}
	}
	return ""
}

// changedSince is why a state column col of e cannot be read as of asOf:
// a date named for its states (names), or a closing date, holds days after
// asOf and before today, so rows changed state since; or a date of the
// rows that refer to e's, named for one of named (the states that could
// move rows into or out of what the query keeps); or, coming (the query
// keeps a state still to come, 'scheduled'), the rows' own date, and a
// date that ends them (valid_until), which rows pass to leave such a
// state. New rows after the
// day (a transfer sent later) say nothing, as the bound leaves them out;
// days after today have not come (a check-out next month). "" otherwise.
func (a *Analyst) changedSince(ctx context.Context, m *semantic.Model, e *semantic.Entity, col string, names, named []string, coming bool, asOf time.Time) string {
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	// Only the rows there by the day: an invoice issued after it, paid
	// since, was no unpaid invoice then (found from outside: every
	// invoice question as of March refused for 49 invoices issued and
	// paid after it).
	// The day a row was made is read by a name that says so (issued_on,
	// created_at), never a date set for later (scheduled_for: a shipment
	// scheduled after the day was there on it, and may be delivered
	// since).
	var existed semantic.Query
	for _, c := range e.Columns {
		if c.Temporal() && madeName(c.Name) && !m.IsRestricted(e.Name, c.Name) {
			existed.Filters = []semantic.Filter{{Field: e.Name + "." + c.Name, Op: semantic.OpLt, Values: []any{next}, OrNull: true}}
			break
		}
	}
	// A row still to come by the status ('scheduled') whose own date has
	// passed since moved on (completed, no-show), and one that had a
	// date ending it (valid_until, end_date) since may have gone from
	// 'active' to 'expired' (found from outside: "appointments are
	// scheduled" and "expired contracts" as of a past day counted by
	// today's status).
	// Only a state an end moves rows into or out of ('active',
	// 'expired'), never 'void' or 'draft'; and never a due date or a
	// deletion, which end nothing of the kind.
	// A state with a date of its own (cancelled_at of 'cancelled') is
	// dated by it, below, not moved into by an end: a charter whose
	// ends_on passed was not cancelled by it (found from outside: every
	// count of charters not cancelled, with a period, refused for the
	// charters ending after the day).
	endMoves := slices.ContainsFunc(named, func(v string) bool {
		w := strings.ReplaceAll(semantic.Fold(v), "_", " ")
		return (slices.Contains(goingStates, w) || slices.Contains(endedWords, w)) && !slices.ContainsFunc(e.Columns, func(c semantic.Column) bool {
			return c.Temporal() && statusDate(c.Name, []string{v})
		})
	})
	for _, c := range e.Columns {
		own := strings.EqualFold(c.Name, e.TimeColumn) || c.TimeRole == semantic.TimeRoleStart
		ends := endMoves && !semantic.DeletionDate(c) && !slices.Contains(semantic.NameWords(c.Name), "due") &&
			(c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == "" && semantic.RunsOut(c.Name)) && !semantic.OthersEnd(e.Name, c.Name)
		switch {
		case !c.Temporal() || madeName(c.Name):
			continue
		case coming && own, ends && !strings.EqualFold(c.Name, e.TimeColumn):
		case strings.EqualFold(c.Name, e.TimeColumn) || !semantic.ClosingName(c.Name) && !statusDate(c.Name, names):
			continue
		}
		field := e.Name + "." + c.Name
		if n, ok := a.datedSinceWhere(ctx, m, field, next, existed); ok && n > 0 {
			return fmt.Sprintf("as of %s, quarry cannot tell the %s of %s as it was then: %s.%s holds today's, and %d rows have %s after that day; ask as of today",
				asOf.Format("2006-01-02"), col, e.Name, e.Name, col, int64(n), field)
		}
	}
	// The rows of other tables that refer to e's, by a date named for
	// one of its states: a payment's paid_at after the day may have made
	// an invoice 'paid' since (found from outside: "how many invoices are
	// unpaid" as of June counted 267 for 282, 15 paid after it).
	for _, r := range m.Relationships {
		if !strings.EqualFold(r.To, e.Name) || strings.EqualFold(r.From, e.Name) || r.Cardinality != semantic.ManyToOne && r.Cardinality != semantic.OneToOne {
			continue
		}
		child := m.Entity(r.From)
		if child == nil {
			continue
		}
		for _, c := range child.Columns {
			if !c.Temporal() || !statusDate(c.Name, named) || m.IsRestricted(child.Name, c.Name) {
				continue
			}
			field := child.Name + "." + c.Name
			if n, ok := a.datedSinceWhere(ctx, m, field, next, existed); ok && n > 0 {
				return fmt.Sprintf("as of %s, quarry cannot tell the %s of %s as it was then: %s.%s holds today's, and %d %s have %s after that day; ask as of today",
					asOf.Format("2006-01-02"), col, e.Name, e.Name, col, int64(n), child.Name, field)
			}
		}
	}
	return ""
}

// finalState reports whether a status value is one a row does not leave:
// called off, paid, closed, done.
func finalState(v string) bool {
	if semantic.CalledOff(v) {
		return true
	}
	switch strings.ReplaceAll(strings.ToLower(strings.TrimSpace(v)), "_", " ") {
	case "paid", "closed", "completed", "complete", "done", "resolved", "delivered", "refunded", "expired", "terminated", "ended", "finished", "churned":
		return true
	}
	return false
}

// yesNo reports whether a column's known values are those of a yes/no
// column: 0 and 1, true and false, yes and no.
func yesNo(values []string) bool {
	if len(values) == 0 || len(values) > 2 {
		return false
	}
	for _, v := range values {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "0", "1", "true", "false", "t", "f", "yes", "no", "y", "n":
		default:
			return false
		}
	}
	return true
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

// endBound is the day before which field's event has happened as of asOf:
// the day after it, or asOf itself for a last day of something (an
// expiry, a valid_until, an end_date: semantic.RunsOut), which has passed only once that day has: a card
// that expires on June 30th is good through that day (found from
// outside: counted as expired on it).
func endBound(field string, asOf time.Time) string {
	if _, col, _ := strings.Cut(field, "."); semantic.RunsOut(col) {
		return asOf.Format("2006-01-02")
	}
	return asOf.AddDate(0, 0, 1).Format("2006-01-02")
}

// asOfUndated refuses, asked as of a day before today, a measure of rows
// with no date of their own and none to keep them to (Plan.DatedBy), where
// a table they belong to holds rows dated after that day: the data went
// on, and which of these rows were there then no date says (found from
// outside: "how many grades are F" as of an earlier day counted every
// grade, at 1.00). Where nothing they belong to is dated later, the rows
// are as they were then.
func (a *Analyst) asOfUndated(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) string {
	q := pl.Query
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	if q == nil || a.Conn == nil || q.TimeRange != nil || len(q.Compare) > 0 || next >= a.tomorrow() {
		return ""
	}
	// Rows kept to the day by a date of a row they belong to (DatedBy)
	// are bounded by asOfBound; the parts of a derived measure are each
	// bounded by their own date only, so an undated part is not.
	var undated []*semantic.Entity
	if q.Rows != nil && pl.DatedBy == "" {
		undated = append(undated, m.Entity(q.Rows.Entity))
	} else if len(q.Metrics) == 1 {
		if mt := m.Metric(q.Metrics[0]); mt != nil && (mt.Derived != "" || pl.DatedBy == "") {
			undated = undatedParts(m, mt, 0)
		}
	}
	for _, e := range undated {
		if e == nil || e.TimeColumn != "" || slices.ContainsFunc(e.Columns, func(c semantic.Column) bool { return c.Temporal() }) {
			continue
		}
		if why := a.undatedThen(ctx, m, e, asOf); why != "" {
			return why
		}
	}
	return ""
}

// undatedParts are the entities of the measures of mt with no date: mt's
// own, or those of the parts of a derived measure ("treatments per
// visit": the treatments, where the visits are dated and kept to the day
// by asOfBound but the treatments are not; found from outside: every
// treatment counted as of an earlier day).
func undatedParts(m *semantic.Model, mt *semantic.Metric, depth int) []*semantic.Entity {
	if mt == nil || depth > 8 {
		return nil
	}
	if mt.Derived == "" {
		if m.MetricTime(mt) == "" {
			return []*semantic.Entity{m.Entity(mt.Entity)}
		}
		return nil
	}
	var out []*semantic.Entity
	for _, sm := range derivedRefRE.FindAllStringSubmatch(mt.Derived, -1) {
		out = append(out, undatedParts(m, m.Metric(sm[1]), depth+1)...)
	}
	return out
}

// undatedThen is asOfUndated's reason for the rows of e, which have no
// date: a table they belong to holds rows dated after the as-of day.
func (a *Analyst) undatedThen(ctx context.Context, m *semantic.Model, e *semantic.Entity, asOf time.Time) string {
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	for _, r := range m.Relationships {
		if !strings.EqualFold(r.From, e.Name) || r.Cardinality == semantic.OneToMany || r.Cardinality == semantic.ManyToMany {
			continue
		}
		p := m.Entity(r.To)
		if p == nil || p.TimeColumn == "" {
			continue
		}
		field := p.Name + "." + p.TimeColumn
		n, ok := a.datedSince(ctx, m, field, next)
		if ok && n > 0 && e.PrimaryKey != "" {
			// Only where some of e's rows are theirs: enrollments that
			// start later have no grades yet, and leave the grades
			// there were as they are (found from outside: every grade
			// average as of March refused for 194 such enrollments).
			var rows int64
			rows, ok = a.countWhere(ctx, m, e, []semantic.Filter{
				{Field: field, Op: semantic.OpGe, Values: []any{next}},
				{Field: field, Op: semantic.OpLt, Values: []any{a.tomorrow()}},
			}, nil, false)
			n = float64(rows)
		}
		if ok && n > 0 {
			return fmt.Sprintf("as of %s, quarry cannot tell which %s there were then: they have no date of their own, and %d of them belong to %s with %s after that day; ask as of today", asOf.Format("2006-01-02"), e.Name, int64(n), p.Name, field)
		}
	}
	return ""
}

// datedSince counts, by control queries through the guard, the rows whose
// date field is on or after from and before tomorrow: what happened after
// a day, not what is set ahead of time (a check-out next month). ok is
// false where a control cannot run.
func (a *Analyst) datedSince(ctx context.Context, m *semantic.Model, field, from string) (float64, bool) {
	return a.datedSinceWhere(ctx, m, field, from, semantic.Query{})
}

// datedSinceWhere is datedSince over the rows that also meet the
// conditions of where.
func (a *Analyst) datedSinceWhere(ctx context.Context, m *semantic.Model, field, from string, where semantic.Query) (float64, bool) {
	n, ok := a.datedWhere(ctx, m, field, "COUNT("+field+")", from, where)
	if !ok {
		return 0, false
	}
	ahead, ok := a.datedWhere(ctx, m, field, "COUNT("+field+")", a.tomorrow(), where)
	return n - ahead, ok
}

// noneBound keeps to the as-of day the rows a plan counts or lists by
// what they have none of ("matches with no goals", "customers who never
// ordered"), where their own date holds days after it: a row dated
// later, set ahead of time (a fixture, an appointment), has had nothing
// yet, and counted it would read as one that had none (found from
// outside: 107 matches "had no goals" for 15, with 90 fixtures still to
// play). asOfBound leaves dates set ahead of today as they are, so this
// holds as of today too. It returns pl as it is otherwise, or when the
// control cannot run.
func (a *Analyst) noneBound(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	pl = a.noneMadeYet(ctx, m, pl, asOf)
	q := pl.Query
	if q == nil || q.TimeRange != nil || len(q.Compare) > 0 || a.Conn == nil || !slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return f.Op == semantic.OpNone }) {
		return pl
	}
	var e *semantic.Entity
	if q.Rows != nil {
		e = m.Entity(q.Rows.Entity)
	} else if len(q.Metrics) == 1 {
		if mt := m.Metric(q.Metrics[0]); mt != nil && mt.Derived == "" {
			e = m.Entity(mt.Entity)
		}
	}
	if e == nil || e.TimeColumn == "" {
		return pl
	}
	if c := e.Column(e.TimeColumn); c == nil || c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == semantic.TimeRoleBirth {
		return pl
	}
	field := e.Name + "." + e.TimeColumn
	if slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, field) && f.Op == semantic.OpLt }) {
		return pl // kept to the day already (seriesAhead)
	}
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	later, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", next)
	if !ok || later <= 0 {
		return pl
	}
	c := *q
	// Those with no date are kept: nothing says they lie ahead (found
	// from outside: "courses with no enrollments" lost the three drafts,
	// never published, with no word).
	c.Filters = append(cloneFilters(q.Filters), semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{next}, OrNull: true})
	out := *pl
	out.Query = &c
	out.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the %d %s with %s after %s are left out: they had not happened then, so they have had nothing yet", int64(later), e.Name, field, asOf.Format("2006-01-02")))
	return &out
}

// noneMadeYet keeps the related rows a plan's rows must have none of to
// those made by the as-of day, where the related table is dated by its
// rows' making and holds days after it: "buyers who have never ordered"
// are those with no order placed by then; an order placed after it is
// none yet (found from outside: 196 buyers whose only orders lay ahead
// counted as having ordered, 519 for 715, at 1.00). The reading says so.
// pl where no such filter is, or the control cannot run.
func (a *Analyst) noneMadeYet(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time) *planner.Plan {
	q := pl.Query
	if q == nil || a.Conn == nil {
		return pl
	}
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	var out *planner.Plan
	for i, f := range q.Filters {
		// The rows missing, and those counted or asked for ("customers
		// with more than 20 orders": not the pending ones dated after
		// the day, found from outside, 55 for 52 at 1.00).
		if f.Op != semantic.OpNone && f.Op != semantic.OpSome && !f.Count {
			continue
		}
		r := m.Entity(f.Field)
		if r == nil || r.TimeColumn == "" || !madeName(r.TimeColumn) && !(r.Column(r.TimeColumn) != nil && r.Column(r.TimeColumn).TimeRole == semantic.TimeRoleEvent && eventName(r.TimeColumn)) {
			continue
		}
		own := r.Name + "." + r.TimeColumn
		if slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return strings.EqualFold(w.Field, own) }) {
			continue // a period of its own
		}
		// Made by the day: entered by then (created_at), where the rows
		// are dated by the event each is made for (a rental's scheduled
		// pickup; found from outside: a reservation made in May for
		// August was no rental of its customer's on June 30th).
		field := semantic.ExistedBy(r)
		if n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", a.tomorrow()); !ok || n <= 0 {
			continue
		}
		if out == nil {
			c := *q
			c.Filters = cloneFilters(q.Filters)
			o := *pl
			o.Query, o.Notes = &c, slices.Clone(pl.Notes)
			out = &o
		}
		out.Query.Filters[i].Where = append(slices.Clone(f.Where), semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{next}})
		if f.Op == semantic.OpNone {
			out.Notes = append(out.Notes, fmt.Sprintf("none of %s made by %s (%s): those dated after it are to come", r.Name, asOf.Format("2006-01-02"), field))
		} else {
			out.Notes = append(out.Notes, fmt.Sprintf("only the %s made by %s count (%s): those dated after it are to come", r.Name, asOf.Format("2006-01-02"), field))
		}
	}
	if out == nil {
		return pl
	}
	return out
}

// verifiedAsOf is why a verified query cannot answer as of asOf, an
// earlier day than today: its SQL reads a table whose rows are dated
// after that day (and before today), and it reads them all, as they
// are today (found from outside: "how many customers do we have" as of
// June gave today's count, said as of June). "" where it can.
func (a *Analyst) verifiedAsOf(ctx context.Context, m *semantic.Model, sql string, asOf time.Time) string {
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	if a.Conn == nil || next >= a.tomorrow() {
		return ""
	}
	low := strings.ToLower(sql)
	for _, e := range m.Entities {
		table := strings.ToLower(e.Table)
		if table == "" {
			table = strings.ToLower(e.Name)
		}
		if e.TimeColumn == "" || e.Role != nil || !strings.Contains(low, table) || !regexp.MustCompile(`\b`+regexp.QuoteMeta(table)+`\b`).MatchString(low) {
			continue
		}
		field := e.Name + "." + e.TimeColumn
		if n, ok := a.datedSince(ctx, m, field, next); ok && n > 0 {
			return fmt.Sprintf("the approved query for this question reads the data as it is today, and %s holds %.0f rows dated after %s; ask as of today, or in other words to have it read as of that day", e.Name, n, asOf.Format("2006-01-02"))
		}
	}
	return ""
}

// endedSince is why a measure's filter that keeps the rows not yet
// ended (closed_at IS NULL) cannot be read as of asOf: the end date holds
// days after it and before today, so rows ended since were not ended
// then. "" otherwise.
func (a *Analyst) endedSince(ctx context.Context, m *semantic.Model, filter string, asOf time.Time) string {
	up := strings.ToUpper(filter)
	if !strings.Contains(up, " IS NULL") || strings.Contains(up, " IS NOT NULL") {
		return ""
	}
	next := asOf.AddDate(0, 0, 1).Format("2006-01-02")
	for _, field := range semantic.ColumnRefs(filter) {
		ent, col, _ := strings.Cut(field, ".")
		e := m.Entity(ent)
		if e == nil || e.Column(col) == nil {
			continue
		}
		c := e.Column(col)
		if !c.Temporal() || !semantic.ClosingName(c.Name) && c.TimeRole != semantic.TimeRoleEnd {
			continue
		}
		if n, ok := a.datedSince(ctx, m, field, next); ok && n > 0 {
			return fmt.Sprintf("as of %s, quarry cannot tell which %s were open then: the measure keeps those whose %s is empty today, and %d rows have %s after that day; ask as of today",
				asOf.Format("2006-01-02"), e.Name, field, int64(n), field)
		}
	}
	return ""
}
