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

// seriesAhead bounds a measure asked with no period of its own, on a
// date that holds days after today (invoices scheduled to be issued,
// visits booked), to what has happened.
//
// "Which month had the most visits" ranked December, with 6 visits made
// and 49 booked, above every whole month, and warned that December was
// short, not that it held the future; "total invoice amount" added up
// the invoices scheduled for the months ahead (found from outside, at
// 0.85 and 1.00). A ranking of periods now runs to the start of the
// period that holds the as-of day, where that period has rows: whole
// periods that are over ("which month had the fewest orders" is never the
// month of today, five days of it); a series or a total, where rows are
// dated after today, to the as-of day, where the partial_period check says a
// series' last period is not over. A note says what was left out. A date
// set ahead by what it means (aheadDate: a lease's end, the time an
// appointment is scheduled for), or a question that looks ahead, is left
// as it is. A list is kept to the day as its count is: "orders from
// Sakura" listed 540 rows, 17 placed after the as-of day, where "how many
// orders from Sakura" counted 523 (found from outside, at 1.00).
//
// One control query counts the rows dated from the period of today (a
// ranking), or after today; where it cannot run, or finds none, pl is
// returned as it is.
func (a *Analyst) seriesAhead(ctx context.Context, m *semantic.Model, pl *planner.Plan, asOf time.Time, question string) *planner.Plan {
	q := pl.Query
	if q == nil || q.TimeRange != nil || len(q.Compare) > 0 || a.Conn == nil {
		return pl
	}
	var g semantic.Grain
	field := ""
	for _, d := range q.Dimensions {
		if d.Grain == "" || d.Grain == semantic.GrainDay || d.Grain.Cyclic() {
			continue
		}
		if g != "" {
			return pl // two series: not read here
		}
		g, field = d.Grain, groupedDate(m, d.Name)
		if field == "" && !strings.EqualFold(d.Name, string(d.Grain)) {
			return pl // a date of an expression
		}
	}
	own := false // each part of a derived measure by its own date
	if field == "" {
		field = rangeDate(m, q) // "by month", or no grouping: the measure's date
	}
	if field == "" && g == "" && len(q.Metrics) == 1 {
		if mt := m.Metric(q.Metrics[0]); mt != nil && mt.Derived != "" {
			// "average number of visits per pet": the visits made, over
			// the pets there are (found from outside: 49 visits booked
			// ahead counted).
			field, own = firstPartTime(m, mt), true
		}
	}
	question = withoutValues(question, q)
	begun := field != "" && slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool {
		ent, _, _ := strings.Cut(field, ".")
		return strings.HasPrefix(strings.ToLower(f.Field), strings.ToLower(ent)+".") && inForceBegun(m, f, field)
	})
	if field == "" || aheadDate(m, field, question) && !(begun && !aheadDate(m, "", question)) {
		return pl
	}
	if _, col, _ := strings.Cut(field, "."); semantic.RunsOut(col) && !eventName(col) {
		return pl // the last day rows are valid (valid_until): no day they happened
	}
	if stateKept(m, q, field) && (asOf.AddDate(0, 0, 1).Format("2006-01-02") >= a.tomorrow() || comingKept(m, q)) {
		// As of an earlier day, a state kept ('failed') leaves the rows
		// dated after it out, as a count with none does: they had not
		// happened then (found from outside: "how many failed lab tests"
		// as of 2025-06-30 counted 86 for 36, "how many lab tests" 193).
		return a.keptAhead(ctx, m, pl, field, asOf)
	}
	if e := rowsEntity(m, q); e != nil && planner.NamedRows(m, q, e) {
		return pl // "order 279": the one named, whenever it is dated
	}
	c := *q
	o := *pl
	o.Query = &c
	next := asOf.AddDate(0, 0, 1)
	if g != "" && ranked(m, q) {
		// "Which month had the fewest orders": not the month of today,
		// five days of it (found from outside: answered with a warning,
		// at 0.85), nor months to come.
		start := g.Start(next) // next itself where today ends its period
		if n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", start.Format("2006-01-02")); !ok || n <= 0 {
			return pl
		}
		c.TimeRange = &semantic.TimeRange{Field: field, To: start.Format("2006-01-02")}
		o.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the %ss from %s on are left out of the ranking: the %s that holds %s is not over, and any after it are to come", g.Words(), start.Format("2006-01-02"), g.Words(), asOf.Format("2006-01-02")))
		return &o
	}
	if n, ok := a.datedFrom(ctx, m, field, "COUNT("+field+")", a.tomorrow()); !ok || n <= 0 {
		return pl
	}
	c.TimeRange = &semantic.TimeRange{Field: field, To: next.Format("2006-01-02")}
	if g == "" && !own {
		// The rows with no date are kept: nothing says they lie ahead
		// (found from outside: "courses with no enrollments" lost the
		// three drafts, never published, with no word).
		c.TimeRange = nil
		c.Filters = append(cloneFilters(q.Filters), semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{next.Format("2006-01-02")}, OrNull: true})
	}
	if own {
		// The first part alone is kept to today, by a condition of its
		// own: the other (the pets) may have no date to cut by.
		c.TimeRange = nil
		day := next.Format("2006-01-02")
		conds := []string{field + " < '" + day + "'"}
		other, begun := a.otherPartAhead(ctx, m, q.Metrics[0], field, question)
		if begun {
			// "average enrollments per section": the sections begun by
			// then, and the enrollments of those (found from outside:
			// enrollments to date over every section, those of next
			// term's too, at 1.00).
			conds = append(conds, other+" < '"+day+"'")
		}
		adhoc, ok := cutPart(m, pl.AdHoc, q.Metrics[0], 0, conds...)
		if begun && ok {
			adhoc, ok = cutPart(m, adhoc, q.Metrics[0], 1, other+" < '"+day+"'")
		}
		if !ok {
			return pl
		}
		o.AdHoc = adhoc
		if begun {
			ent, _, _ := strings.Cut(other, ".")
			o.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("over the %s begun by %s (%s), and what is theirs: %s holds dates after it, which have not come yet", ent, asOf.Format("2006-01-02"), other, other))
		}
	}
	verb := "counted"
	if q.Rows != nil {
		verb = "listed"
	}
	o.Notes = append(slices.Clone(o.Notes), fmt.Sprintf("%s up to %s: %s holds dates after it (set ahead), which have not happened yet; name a period to take them in", verb, asOf.Format("2006-01-02"), field))
	return &o
}

// keptAhead is pl, kept whole by the state its rows hold now
// (stateKept), with a note of how many of the rows it reads are dated
// after asOf by field: "shipments by status" takes in the shipments
// dated ahead, by their status, where "shipments by carrier" leaves them
// out (found from outside: counted without a word, at 1.00).
func (a *Analyst) keptAhead(ctx context.Context, m *semantic.Model, pl *planner.Plan, field string, asOf time.Time) *planner.Plan {
	ent, _, _ := strings.Cut(field, ".")
	e := m.Entity(ent)
	n, ok := a.datedWhere(ctx, m, field, "COUNT("+field+")", a.tomorrow(), *pl.Query)
	if !ok || n <= 0 || e == nil {
		return pl
	}
	o := *pl
	o.Notes = append(slices.Clone(pl.Notes), fmt.Sprintf("the %d %s dated after %s (%s) are taken in, by the state each is marked with now; name a period to leave them out", int64(n), e.Name, asOf.Format("2006-01-02"), field))
	return &o
}

// stateKept reports whether q keeps the rows of the table of field by a
// state they hold now, or groups them by it: "how many rentals are
// reserved" counts the reservations, all picked up after today, and "how
// many rentals are cancelled" those cancelled already, whatever day they
// were for (found from outside: 0 reserved, and 45 cancelled bookings
// left out, at 1.00).
func stateKept(m *semantic.Model, q *semantic.Query, field string) bool {
	ent, col, _ := strings.Cut(field, ".")
	for _, f := range q.Filters {
		if e, _, ok := comingFilter(m, f); ok && strings.EqualFold(e.Name, ent) {
			// "how many invoices are scheduled": the rows asked for are
			// those not made yet, dated ahead by their making (found from
			// outside: 0 for 878, at 1.00).
			return true
		}
	}
	if madeName(col) {
		// A row dated after today by its making (an order's placed_at,
		// a return's requested_on) is not made yet, whatever state it
		// is marked with (found from outside: "orders by status" took
		// in 858 orders placed after the day, at 1.00).
		return false
	}
	state := func(f string) bool {
		fd, ok := m.ColumnField(f)
		return ok && strings.EqualFold(fd.Entity.Name, ent) && semantic.StatusName(fd.Column.Name)
	}
	for _, f := range q.Filters {
		if (f.Op == semantic.OpEq || f.Op == semantic.OpIn) && state(f.Field) && !inForceBegun(m, f, field) {
			return true
		}
	}
	for _, d := range q.Dimensions {
		if state(d.Name) {
			return true
		}
	}
	return false
}

// comingKept reports whether q keeps rows to states still to come
// (scheduled, planned) alone.
func comingKept(m *semantic.Model, q *semantic.Query) bool {
	return slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool {
		_, _, ok := comingFilter(m, f)
		return ok
	})
}

// madeName reports whether a date's name says a row was made then: an
// order placed, a request submitted, a booking made, a return requested.
func madeName(column string) bool {
	for _, w := range semantic.NameWords(column) {
		switch w {
		case "placed", "ordered", "created", "submitted", "requested", "booked", "registered", "filed", "raised", "logged", "issued", "posted", "purchased", "sold", "made", "signed", "applied", "enrolled", "joined":
			return true
		}
	}
	return false
}

// inForceBegun reports whether f keeps rows in a state of being in force
// now ('active') and field is their start: a membership that starts next
// week, marked active already, is none yet (found from outside: "active
// memberships at West End" counted 3 pre-registered, at 1.00).
//
// So too where field is the date of the very state kept: a course marked
// 'published' whose published_on is next week is not published yet
// (found from outside: 70 courses for the 68 live, at 1.00).
func inForceBegun(m *semantic.Model, f semantic.Filter, field string) bool {
	fd, ok := m.ColumnField(field)
	if !ok || f.Op != semantic.OpEq && f.Op != semantic.OpIn {
		return false
	}
	return fd.Column.TimeRole == semantic.TimeRoleStart && inForce(f.Values) || dateOfState(fd.Column.Name, f.Values)
}

// dateOfState reports whether a date's name is the word of every state
// of values (published_on of 'published').
func dateOfState(column string, values []any) bool {
	ws := semantic.NameWords(column)
	for _, v := range values {
		s := semantic.Fold(fmt.Sprint(v))
		if len(s) < 4 || !slices.Contains(ws, s) || slices.Contains(aheadWords, s) {
			// Not 'scheduled' of scheduled_at: the day the thing is
			// for, not the day the state began (found from outside:
			// "how many scheduled showings" 0 for 67).
			return false
		}
	}
	return len(values) > 0
}

// inForce reports whether every value says a row is in force now.
func inForce(values []any) bool {
	for _, v := range values {
		if !semantic.InForce(fmt.Sprint(v)) {
			return false
		}
	}
	return len(values) > 0
}

// withoutValues is question less the values q's filters name ("West
// End"), whose words say nothing of when ("end").
func withoutValues(question string, q *semantic.Query) string {
	var walk func(fs []semantic.Filter)
	walk = func(fs []semantic.Filter) {
		for _, f := range fs {
			for _, v := range f.Values {
				if s, ok := v.(string); ok && len(s) > 1 {
					if i := strings.Index(strings.ToLower(question), strings.ToLower(s)); i >= 0 {
						question = question[:i] + " " + question[i+len(s):]
					}
				}
			}
			walk(f.Where)
		}
	}
	walk(q.Filters)
	return question
}

// aheadWords, in a date column's name or its synonyms, say the date is
// set ahead by what it means: a day something ends, is due, renews or is
// scheduled for.
var aheadWords = []string{"end", "ends", "ending", "ended", "expire", "expires", "expiry", "expiration", "expiring", "due", "renew", "renews", "renewal", "renewing",
	"scheduled", "schedule", "planned", "plan", "expected", "booked", "start", "starts", "starting", "opens", "opening", "deadline", "until", "valid", "appointment"}

// lookAheadWords, in a question, say it asks for what is set ahead too.
var lookAheadWords = []string{"upcoming", "scheduled", "planned", "booked", "due", "expected", "coming", "will", "ahead", "future", "forthcoming",
	"end", "ends", "ending", "expire", "expires", "expiring", "renew", "renews", "renewing", "start", "starts", "starting", "opens", "opening"}

// pastWords, in a question, say it asks for what has happened.
var pastWords = []string{"was", "were", "did", "had", "happened", "so far", "to date"}

// aheadDate reports whether field, a date, is asked for beyond today: a
// date set ahead by what it means (a day something ends, is due, renews
// or is scheduled for, by its name or synonyms), or a question that looks ahead
// ("upcoming renewals"); never a question that speaks of what was ("how
// many invoices were issued in December", "leases that ended this
// month").
func aheadDate(m *semantic.Model, field, question string) bool {
	words := questionWords(question)
	said := func(list []string) bool { return saidAny(words, list) }
	if said(pastWords) {
		return false
	}
	for _, w := range words {
		if strings.HasSuffix(w, "ed") && len(w) > 4 && slices.Contains(aheadWords, strings.TrimSuffix(w, "ed")) {
			return false // "leases that ended this month"
		}
	}
	if said(lookAheadWords) {
		return true
	}
	ent, col, ok := strings.Cut(field, ".")
	e := m.Entity(ent)
	if !ok || e == nil {
		return false
	}
	c := e.Column(col)
	if c == nil {
		return false
	}
	if madeName(c.Name) && c.TimeRole != semantic.TimeRoleStart && c.TimeRole != semantic.TimeRoleEnd && !slices.Contains(semantic.NameWords(c.Name), "for") {
		// The day a row was made (a booking's booked_at), which no row
		// has before it is made, is not set ahead, though "booked" may
		// say so of a date booked for (booked_for, which stays one;
		// found from outside: "how many bookings" as of 2026-06-30 took
		// in 216 made after it, at 1.00).
		return false
	}
	// Not an end by its role alone: a subscription's cancelled_on set
	// after today is a cancellation to come, which "cancellations by
	// month" does not count as made (found from outside).
	for _, w := range semantic.NameWords(c.Name + " " + strings.Join(c.Synonyms, " ")) {
		if slices.Contains(aheadWords, w) {
			return true
		}
	}
	return false
}

// questionWords are a question's words, lower case, without punctuation.
func questionWords(question string) []string {
	return strings.Fields(strings.ToLower(strings.NewReplacer("?", " ", ",", " ", ".", " ", "’", "'").Replace(question)))
}

// saidAny reports whether words hold any of list, a phrase of several
// words as written together.
func saidAny(words, list []string) bool {
	for _, w := range list {
		if strings.Contains(w, " ") {
			if strings.Contains(" "+strings.Join(words, " ")+" ", " "+w+" ") {
				return true
			}
		} else if slices.Contains(words, w) {
			return true
		}
	}
	return false
}

// groupedDate is the column a query's time dimension groups by: a column
// named as table.column, or a dimension of the model that is one; "" for
// any other expression.
func groupedDate(m *semantic.Model, name string) string {
	if d := m.Dimension(name); d != nil {
		name = strings.TrimSpace(d.Expr)
	}
	ent, col, ok := strings.Cut(name, ".")
	if e := m.Entity(ent); !ok || e == nil || e.Column(col) == nil {
		return ""
	}
	return name
}

// ranked reports whether a query orders its groups by a measure: a
// ranking, which only whole periods may enter.
func ranked(m *semantic.Model, q *semantic.Query) bool {
	for _, o := range q.Order {
		if m.Metric(o.Field) != nil || slices.Contains(q.Metrics, o.Field) {
			return true
		}
	}
	return false
}

// cutPart is adhoc with the k-th part of the derived measure name (its
// k-th {metric}) replaced by a copy kept by conds.
func cutPart(m *semantic.Model, adhoc []semantic.Metric, name string, k int, conds ...string) ([]semantic.Metric, bool) {
	i := slices.IndexFunc(adhoc, func(x semantic.Metric) bool { return x.Name == name })
	if i < 0 {
		return nil, false
	}
	refs := derivedRefRE.FindAllStringSubmatch(adhoc[i].Derived, -1)
	if k >= len(refs) {
		return nil, false
	}
	part := m.Metric(refs[k][1])
	if part == nil {
		part = adhocMetric(adhoc, refs[k][1])
	}
	if part == nil || part.Derived != "" {
		return nil, false
	}
	cp := *part
	cp.Name = part.Name + "_to_date"
	for m.Metric(cp.Name) != nil || adhocMetric(adhoc, cp.Name) != nil {
		cp.Name += "_q"
	}
	cp.Filters = append(slices.Clone(part.Filters), conds...)
	out := slices.Clone(adhoc)
	out[i].Derived = strings.Replace(out[i].Derived, "{"+part.Name+"}", "{"+cp.Name+"}", 1)
	return append(out, cp), true
}

// adhocMetric is the metric of adhoc called name, or nil.
func adhocMetric(adhoc []semantic.Metric, name string) *semantic.Metric {
	for i := range adhoc {
		if adhoc[i].Name == name {
			return &adhoc[i]
		}
	}
	return nil
}

// otherPartAhead is the date of the rows the second part of the derived
// measure name counts (the sections of enrollments per section), where
// they are dated after today too (a start set ahead counts: the first
// part is cut, and its rows are theirs), the question does not look ahead
// (aheadDate), and the first part's rows (dated by field) belong to them;
// begun is false otherwise.
func (a *Analyst) otherPartAhead(ctx context.Context, m *semantic.Model, name, field, question string) (other string, begun bool) {
	mt := m.Metric(name)
	if mt == nil {
		return "", false
	}
	refs := derivedRefRE.FindAllStringSubmatch(mt.Derived, -1)
	if len(refs) != 2 {
		return "", false
	}
	part := m.Metric(refs[1][1])
	if part == nil || part.Derived != "" {
		return "", false
	}
	other = m.MetricTime(part)
	ent, _, _ := strings.Cut(other, ".")
	first, _, _ := strings.Cut(field, ".")
	if other == "" || strings.EqualFold(ent, first) || aheadDate(m, "", question) {
		return "", false
	}
	owned := false
	for p := range m.Parents(first) {
		owned = owned || strings.EqualFold(p, ent)
	}
	if !owned {
		return "", false
	}
	n, ok := a.datedFrom(ctx, m, other, "COUNT("+other+")", a.tomorrow())
	return other, ok && n > 0
}

// firstPartTime is the date of the first part of a derived measure (the
// visits' of visits per pet), "" where it has none.
func firstPartTime(m *semantic.Model, mt *semantic.Metric) string {
	sm := derivedRefRE.FindStringSubmatch(mt.Derived)
	if sm == nil {
		return ""
	}
	if part := m.Metric(sm[1]); part != nil && part.Derived == "" {
		return m.MetricTime(part)
	}
	return ""
}
