package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The question's period against the query's: a period said and applied,
// a stock measured over one, and the date a state came about.

// period: a period the question names without a number ("last month",
// "Q1", "in March") is a time range of the query.
func (c *cover) period() (ok, bad []string) {
	var named []string
	for _, p := range relativePeriods {
		if c.has(p) {
			named = append(named, p)
		}
	}
	for _, w := range c.words {
		if quarterRE().MatchString(w) || monthNames[w] && w != "may" {
			named = append(named, w)
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	if c.timeRange() != nil || len(c.q.Compare) > 0 || c.timeFilter() {
		return named, nil
	}
	return nil, []string{"the period \"" + named[0] + "\" is not applied"}
}

// timeFilter reports whether a filter is on a date column.
func (c *cover) timeFilter() bool {
	for _, f := range c.q.Filters {
		fl, err := c.m.ResolveField(f.Field)
		if err != nil {
			continue
		}
		if fl.Kind == semantic.FieldDimension && fl.Dimension.Type == "time" || fl.Kind == semantic.FieldColumn && fl.Column.Temporal() {
			return true
		}
	}
	return false
}

// flowWords say the question counts what was made in the period ("new
// customers", "signed up", "hired"), not what there was.
var flowWords = []string{"new", "joined", "join", "joining", "signed", "signup", "signups", "sign-ups", "registered", "registrations",
	"hired", "hires", "hiring", "launched", "launches", "added", "acquired", "acquisitions", "created", "started", "starts",
	"opened", "onboarded", "from", "since", "during", "placed", "raised", "filed", "submitted", "logged", "reported"}

// creationWordSaid reports whether the question says the rows were made in
// the period ("new", "started", "joined"), beyond a bare "since" or "from".
func (c *cover) creationWordSaid() bool {
	for _, w := range flowWords {
		if w != "from" && w != "since" && w != "during" && c.has(w) {
			return true
		}
	}
	return false
}

// saysWhenAfter reports whether w ("from", "since") is followed by a
// period somewhere in the question: "customers from 2025" says when,
// "which countries did our guests come from this year" says where
// (found from outside: read as when, and the guests created this year
// ranked, at 1.00).
func (c *cover) saysWhenAfter(w string) bool {
	for i, x := range c.words {
		if x != w || i+1 >= len(c.words) {
			continue
		}
		if i > 0 && slices.Contains([]string{"come", "came", "comes", "coming", "are", "is", "was", "were", "originate", "originated", "hail"}, c.words[i-1]) {
			continue // "come from", "are from": where
		}
		next := c.words[i+1]
		if next == "the" && i+2 < len(c.words) {
			next = c.words[i+2]
		}
		if next != "" && (next[0] >= '0' && next[0] <= '9' || slices.Contains(whenWords, next)) {
			return true
		}
	}
	return false
}

// whenWords start a period after "from" or "since".
var whenWords = []string{"this", "last", "next", "past", "previous", "start", "beginning", "end", "january", "february", "march", "april", "may",
	"june", "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
	"oct", "nov", "dec", "q1", "q2", "q3", "q4", "h1", "h2", "yesterday", "today", "then", "launch", "day", "week", "month", "quarter", "year"}

// OwnGrain is the grain of a grouping by the measures' own date ("by
// month" with no date named), or "".
func OwnGrain(m *semantic.Model, q *semantic.Query) semantic.Grain {
	for _, d := range q.Dimensions {
		if d.Grain != "" && !strings.Contains(d.Name, ".") && m.Dimension(d.Name) == nil {
			return d.Grain
		}
	}
	return ""
}

// stockPeriod: "how many customers did we have last month" asks how many
// there were; a count of a kind of thing (rows other rows refer to:
// customers, employees, products), or a measure of what is active, with
// the period applied to the date each was made, answers how many were
// made in it. Without a word that asks for those ("new", "signed up",
// "hired"), the reading is refused.
func (c *cover) stockPeriod() (ok, bad []string) {
	tr := c.q.TimeRange
	// A time grain on the measure's own date ("MRR by month", "headcount
	// by year") dates each row by when it was made, as a period does.
	grain := OwnGrain(c.m, c.q)
	// Compared periods ("MRR this month vs last month") date the rows as
	// a period does, each.
	if tr == nil && grain == "" && len(c.q.Compare) == 0 {
		return nil, nil
	}
	flow := false
	for _, w := range flowWords {
		if c.has(w) && (w != "from" && w != "since" && w != "during" || c.saysWhenAfter(w)) {
			flow = true
		}
	}
	for _, name := range c.q.Metrics {
		mt := c.m.Metric(name)
		if mt == nil || mt.Entity == "" {
			continue
		}
		own := c.m.MetricTime(mt)
		if own == "" || tr != nil && tr.Field != "" && !sameField(c.m, tr.Field, own) {
			continue
		}
		active := false
		for _, f := range mt.Filters {
			if stateFilter(f) {
				active = true
			}
		}
		for _, f := range c.q.Filters {
			for _, v := range f.Values {
				if sv, ok := v.(string); ok && f.Op == semantic.OpEq && stateFilter("'"+sv+"'") {
					active = true
				}
			}
		}
		// "since", "from", "during" say when for a count of what was made,
		// not for a state ("MRR since 2025" is MRR, not MRR of those
		// started since).
		if flow && (!active || c.creationWordSaid() && (c.stateSaid(mt) || !c.countsState(mt))) {
			continue
		}
		// "how many refunds last month": rows in an event's state
		// (refunded, cancelled) are events, dated, as PeriodDate reads
		// them, by the table's one date.
		if !active && eventCount(c.m, mt, own) {
			continue
		}
		// "how many customers did we have at the end of 2025": every
		// row made up to the period's end is how many there were then,
		// for things (not for a state, which is now's: a yes/no flag
		// such as discontinued holds today's value, found from
		// outside).
		if !active && tr != nil && tr.From == "" && tr.To != "" && grain == "" && len(c.q.Compare) == 0 {
			if flag := c.flagFilter(); flag != "" {
				return nil, []string{fmt.Sprintf("%s by the end of a period is read as those made by then, with %s as it is now, but the question asks how it was then; quarry has no history of %s", mt.Name, flag, flag)}
			}
			continue
		}
		when := "in a period"
		switch {
		case tr == nil && len(c.q.Compare) > 0:
			when = "in each period compared"
		case tr == nil:
			when = "by " + grain.Words()
		}
		_, col, _ := strings.Cut(own, ".")
		if e := c.m.Entity(mt.Entity); e != nil && !active {
			// A table dated by the event each row records (ordered_at,
			// borrowed_on: time_role event) holds events; counted in a
			// period, they happened then.
			if cc := e.Column(col); cc != nil && cc.TimeRole == semantic.TimeRoleEvent && countsRows(mt.Expr) {
				continue
			}
			// A table dated by the time each row is scheduled for
			// (flights.scheduled_departure) is a calendar of events:
			// counted in a period, they were set for then (found from
			// outside: "how many flights last month" refused for want
			// of "new").
			if cc := e.Column(col); cc != nil && cc.TimeRole == "" && semantic.PlanWord(cc.Name) != "" && countsRows(mt.Expr) {
				continue
			}
			// A table named for the act that makes its rows (bookings,
			// reservations, enrollments) dated by the day each was
			// entered (created_at) holds those acts: counted in a
			// period, they were made then (found from outside:
			// "bookings by channel this year" refused for want of
			// "new", on a theatre company).
			if cc := e.Column(col); cc != nil && semantic.EnteredName(cc.Name) && actNoun(e.Name) && countsRows(mt.Expr) {
				continue
			}
		}
		if e := c.m.Entity(mt.Entity); e != nil {
			// The question names the date: it counts what was made then.
			// For a state, a word of the measure's own name ("open" of
			// open tickets) is the state, not the date.
			if cc := e.Column(col); cc != nil && !active && (c.namesColumn(e.Name, cc) || c.namesEvent(e, cc)) {
				continue
			}
			if cc := e.Column(col); cc != nil && active && c.namesDateBeyond(mt, cc) {
				if c.stateSaid(mt) {
					continue // "active members who joined last year"
				}
				// "how many members joined the club last year" of active
				// subscribers: those who joined then and are still
				// active, not all who joined (found from outside: 459
				// for 943, at 1.00).
				return nil, []string{fmt.Sprintf("%s keeps to rows in a state now (%s), so %s %s would count only those still in it; ask for all the rows made then, by their table (“%s started …”), or say \"still\" or the state", mt.Name, strings.Join(mt.Filters, " and "), mt.Name, when, strings.ReplaceAll(mt.Entity, "_", " "))}
			}
		}
		// A piece of work dated by how it turned out (a shipment
		// delivered, a ticket closed) is made, not held: counted in a
		// period, it was made then (found from outside: "shipments by
		// month in 2025" refused for want of "new").
		thing := countsRows(mt.Expr) && c.referenced(mt.Entity) && !(c.m.Entity(mt.Entity) != nil && semantic.Outcomes(c.m.Entity(mt.Entity)))
		// "new" where no column holds it as a value; else the date by
		// its name, as "new" would be read as that value (found from
		// outside: "new tickets last month" was then the status new).
		say := "say \"new\" (or name the date)"
		if e := c.m.Entity(mt.Entity); e != nil && slices.ContainsFunc(e.Columns, func(cc semantic.Column) bool { return holdsValue(cc.Values, "new") }) {
			said := strings.FieldsFunc(strings.ToLower(col), func(r rune) bool { return r == '_' || r == ' ' })
			for len(said) > 1 && slices.Contains([]string{"at", "on", "date", "dt", "ts", "time"}, said[len(said)-1]) {
				said = said[:len(said)-1]
			}
			say = fmt.Sprintf("name the date (“%s %s in …”)", strings.ReplaceAll(mt.Entity, "_", " "), strings.Join(said, " "))
		}
		if active {
			return nil, []string{fmt.Sprintf("%s %s is read as those whose %s falls in it and that are in that state now, but the question may mean those in that state during the period; ask for it without a period (as of now), or %s for those made then", mt.Name, when, own, say)}
		}
		if thing {
			return nil, []string{fmt.Sprintf("%s %s is read as those whose %s falls in it (made then), but the question may mean how many there were; %s for those made then", mt.Name, when, own, say)}
		}
	}
	return nil, nil
}

// eventCount reports whether mt counts the rows of its table that are in
// the state an event left them in (status = 'refunded', 'cancelled'),
// and own is the table's only date: what it counts in a period are
// events, not things there were.
func eventCount(m *semantic.Model, mt *semantic.Metric, own string) bool {
	e := m.Entity(mt.Entity)
	ent, col, _ := strings.Cut(own, ".")
	if e == nil || !strings.EqualFold(ent, e.Name) || !countsRows(mt.Expr) {
		return false
	}
	for _, c := range e.Columns {
		if c.Temporal() && !strings.EqualFold(c.Name, col) {
			return false // the event may have a date of its own
		}
	}
	event := false
	for _, expr := range mt.Filters {
		f, ok := semantic.ParsePredicate(expr)
		key := strings.ToLower(f.Field)
		if !ok || (f.Op != semantic.OpEq && f.Op != semantic.OpIn) || !strings.HasPrefix(key, strings.ToLower(e.Name)+".") || !stateColumn().MatchString(key) {
			return false
		}
		for _, v := range f.Values {
			s, isText := v.(string)
			if !isText || !strings.HasSuffix(strings.ToLower(s), "ed") {
				return false
			}
		}
		event = true
	}
	return event
}

// namesEvent reports whether the question names, by one of its synonyms,
// a table named after the event its own date records ("purchases" for
// orders, whose date is ordered_at): its rows are those events, so a
// count of them in a period counts those that happened then, as "orders"
// itself does (namesColumn).
func (c *cover) namesEvent(e *semantic.Entity, col *semantic.Column) bool {
	name := strings.ToLower(e.Name)
	if len(name) < 4 {
		return false
	}
	event := false
	for _, w := range splitName(col.Name) {
		if len(w) >= 4 && !genericWords[w] && w[:4] == name[:4] {
			event = true
		}
	}
	if !event {
		return false
	}
	for _, s := range e.Synonyms {
		if c.has(s) {
			return true
		}
	}
	return false
}

// stateWords are values of a status that hold for a while and then end.
var stateWords = []string{"'active'", "'open'", "'pending'", "'in progress'", "'in_progress'", "'outstanding'", "'unpaid'", "'overdue'", "'trialing'", "'on hold'"}

// unsetDateRE is a condition that an event has not happened yet
// ("support_tickets.closed_at IS NULL": the ticket is open).
var unsetDateRE = lazyRE(`(?i)\b\w*(_at|_on|_date|ed)\s+is\s+null\b`)

// stateFilter reports whether a metric's condition selects rows by a state
// they are in now (active subscriptions, open tickets), not by an event:
// such a measure in a period is a question about the state then.
func stateFilter(f string) bool {
	l := strings.ToLower(f)
	for _, w := range stateWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return unsetDateRE().MatchString(f)
}

// namesDateBeyond reports whether the question names the date col of mt's
// entity with a word that is not part of the measure's own name: "open"
// of "open tickets" is the state, not opened_at; "orders" of "open
// orders" is not ordered_at.
func (c *cover) namesDateBeyond(mt *semantic.Metric, col *semantic.Column) bool {
	own := map[string]bool{}
	for _, n := range append([]string{mt.Name, mt.Entity}, mt.Synonyms...) {
		for _, w := range splitName(n) {
			own[strings.ToLower(w)] = true
		}
	}
	for _, w := range c.namingWords(mt.Entity, col) {
		if !own[w] {
			return true
		}
	}
	return false
}

// referenced reports whether other entities refer to ent (it is a kind of
// thing, like customers or products, not an event like orders).
func (c *cover) referenced(ent string) bool {
	for _, r := range c.m.Relationships {
		if strings.EqualFold(r.To, ent) && !strings.EqualFold(r.From, ent) {
			return true
		}
	}
	return false
}

// timeRange is the query's period: its time range, or the period a
// condition on how many related rows each row has puts on those rows'
// date ("customers with fewer than 2 orders in 2025": each customer's
// orders from 2025-01-01 to 2026-01-01), when the query has no other.
func (c *cover) timeRange() *semantic.TimeRange {
	if c.q.TimeRange != nil {
		return c.q.TimeRange
	}
	for _, f := range c.q.Filters {
		if !f.OnRelated() {
			continue
		}
		tr := &semantic.TimeRange{}
		for _, w := range f.Where {
			fl, err := c.m.ResolveField(w.Field)
			if err != nil || fl.Kind != semantic.FieldColumn || !fl.Column.Temporal() || len(w.Values) != 1 {
				continue
			}
			v, _ := w.Values[0].(string)
			switch w.Op {
			case semantic.OpGe:
				tr.Field, tr.From = w.Field, v
			case semantic.OpLt:
				tr.Field, tr.To = w.Field, v
			}
		}
		if tr.From != "" || tr.To != "" {
			return tr
		}
	}
	return nil
}

// stateDate reports whether col is the date its table's rows came to be
// in a state the question names and the query picks: "subscriptions
// cancelled last month" filtered on status 'cancelled' and dated by
// ended_on, "Last day of a cancelled subscription". The state's word
// must be in the question, in the query's filter on that table, and in
// the date's name, synonyms or description.
func (c *cover) stateDate(ent string, col *semantic.Column) bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(strings.Join(append([]string{col.Name, col.Description}, col.Synonyms...), " ")), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r > 127)
	}) {
		words[w] = true
	}
	for _, f := range c.q.Filters {
		if f.Op != semantic.OpEq || len(f.Values) != 1 || f.Count {
			continue
		}
		v, ok := f.Values[0].(string)
		// A decision's date may be named for deciding (decided_at), not
		// for the way it went.
		if !ok || !words[strings.ToLower(v)] && !(semantic.DecisionState(v) && semantic.DecisionDate(col.Name)) || !c.has(strings.ToLower(v)) {
			continue
		}
		rf, err := c.m.ResolveField(f.Field)
		if err != nil {
			continue
		}
		if rf.Kind == semantic.FieldDimension {
			if rf, err = c.m.ResolveField(rf.Dimension.Expr); err != nil {
				continue
			}
		}
		if rf.Kind == semantic.FieldColumn && rf.Entity.Name == ent && !rf.Column.Temporal() {
			return true
		}
	}
	return false
}

// ageOf reports whether "than N units" ("older than 30 days") is a
// filter on a date at N units before the as-of day: the rows' age.
func (c *cover) ageOf(prev, num, unit string) bool {
	n, err := strconv.Atoi(num)
	if prev != "than" || err != nil || c.asOf.IsZero() {
		return false
	}
	day := semantic.Grain(strings.TrimSuffix(unit, "s")).Add(c.asOf, -n)
	if day.Equal(c.asOf) {
		return false
	}
	// Older: before the day N before; newer: from the day after it (the
	// last N days).
	older, newer := day.Format("2006-01-02"), day.AddDate(0, 0, 1).Format("2006-01-02")
	return slices.ContainsFunc(c.q.Filters, func(f semantic.Filter) bool {
		return len(f.Values) == 1 && (f.Op == semantic.OpLt && f.Values[0] == any(older) || f.Op == semantic.OpGe && f.Values[0] == any(newer))
	})
}

// flagFilter is the column of a filter on a yes/no flag ("discontinued",
// "is_active"), "" for none.
func (c *cover) flagFilter() string {
	for _, f := range c.q.Filters {
		if _, col, ok := strings.Cut(f.Field, "."); ok && semantic.FlagName(col) {
			return col
		}
	}
	return ""
}

// stateSaid reports whether the question says the state a measure keeps
// to: "still", "currently", "now", or a value its filters name
// ("active").
func (c *cover) stateSaid(mt *semantic.Metric) bool {
	for _, w := range []string{"still", "currently", "now", "today"} {
		if c.has(w) {
			return true
		}
	}
	// The state said by the measure's own name before its noun ("open"
	// of open_orders, "active" of active_subscribers).
	if ws := strings.Split(strings.ToLower(mt.Name), "_"); len(ws) > 1 {
		for _, w := range ws[:len(ws)-1] {
			if len(w) > 2 && c.has(w) {
				return true
			}
		}
	}
	for _, f := range mt.Filters {
		parts := strings.Split(f, "'")
		for i := 1; i < len(parts); i += 2 {
			if w := strings.ToLower(strings.TrimSpace(parts[i])); len(w) > 2 && c.has(w) {
				return true
			}
		}
	}
	return false
}

// countsState reports whether a measure counts rows kept to a state by
// its filters (active subscribers: COUNT over status = 'active'): made
// in a period and still in that state now is not every row made then.
func (c *cover) countsState(mt *semantic.Metric) bool {
	return len(mt.Filters) > 0 && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(")
}

// actNoun reports whether a table's name is the noun of an act of making
// that a customer does: a booking, a reservation, an enrollment, a
// registration, an order, a purchase, a request. Not a thing made
// (listings, hires), which is held.
func actNoun(entity string) bool {
	ws := semantic.NameWords(entity)
	if len(ws) == 0 {
		return false
	}
	w := strings.TrimSuffix(ws[len(ws)-1], "s")
	switch w {
	case "order", "purchase", "request", "application", "submission", "registration", "reservation", "signup":
		return true
	}
	for _, end := range []string{"ing", "ment"} {
		if stem, ok := strings.CutSuffix(w, end); ok && len(stem) >= 3 {
			switch stem {
			case "book", "enroll", "enrol", "reserv", "order", "purchas", "register":
				return true
			}
		}
	}
	return false
}
