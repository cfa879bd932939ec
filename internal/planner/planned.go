package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// plannedEvent refuses a verb of what happened ("arrived", "departed",
// "delivered") read from a date that holds when it was planned
// (scheduled_arrival, planned_delivery, due_date) where the rows' status
// says some of them never happened, or not yet ('cancelled', 'scheduled'),
// and the question keeps no status: every planned row has that date, so
// "how many flights arrived in Denver" counted the cancelled ones too
// (found from outside, at confidence 1.00). A question that names a
// status ("landed flights") is answered as before.
func (b *builder) plannedEvent() *Plan {
	for _, t := range b.st.terms {
		if len(t.cands) == 0 || (t.role != "time" && t.role != "filter" && t.role != "context") {
			continue
		}
		s := t.cands[0]
		if s.kind != sColumn || !s.temporal || !pastForm(t.it.text) || strings.Contains(t.it.text, " ") {
			continue
		}
		plan := planWord(s.column)
		if plan == "" || stemWord(t.it.text) == stemWord(plan) {
			continue // "flights scheduled in June"
		}
		e := b.p.entity(s.entity)
		if e == nil {
			continue
		}
		for _, c := range e.Columns {
			if !semantic.StatusName(c.Name) || b.p.m.IsRestricted(e.Name, c.Name) || b.filters(e.Name+"."+c.Name) {
				continue
			}
			var undone []string
			for _, v := range c.Values {
				if notHappened(v) {
					undone = append(undone, "'"+v+"'")
				}
			}
			if len(undone) == 0 {
				continue
			}
			pl := b.fail(fmt.Sprintf("quarry cannot tell which %s %s: %s.%s is when each was %s, and %s.%s also holds %s; ask for the %s that says so (“%s with %s …”)",
				display(e.Name), t.it.text, e.Name, s.column, plan, e.Name, c.Name, andList(undone), c.Name, display(e.Name), c.Name))
			pl.final = true
			return pl
		}
	}
	return nil
}

// filters reports whether the query keeps some values of field.
func (b *builder) filters(field string) bool {
	for _, f := range b.q.Filters {
		if strings.EqualFold(f.Field, field) {
			return true
		}
	}
	return false
}

// planWord is the word of a date column's name that makes it a plan, not
// an event (semantic.PlanWord).
func planWord(column string) string { return semantic.PlanWord(column) }

// notHappened reports whether a status value says the row's event did
// not happen as planned, or has not happened yet.
func notHappened(v string) bool {
	if semantic.NoShow(v) || semantic.StillToCome(v) {
		return true
	}
	switch strings.ReplaceAll(strings.ReplaceAll(semantic.Fold(v), "-", " "), "_", " ") {
	case "cancelled", "canceled", "cancellation", "postponed", "aborted", "abandoned",
		"scrapped", "diverted", "failed", "rescheduled", "skipped", "void", "voided", "rejected", "declined", "pending":
		return true
	}
	return false
}

// undoneOut keeps out, of rows read as having had the event a status
// value names ("matches were played in 2025": a played_on in 2025), those
// whose status says it never took place ('postponed', 'cancelled'), where
// that date is the one every row of the table has: it is when the event
// was to be (found from outside: 132 matches played for 124, the
// postponed ones counted). A date of its own that only some rows have
// (shipped_at beside ordered_at) says the event took place. Not for a
// verb of making, which a cancellation follows ("appointments booked": a
// cancelled one was booked).
func (b *builder) undoneOut(t *term, s sense, date string) {
	e := b.p.entity(s.entity)
	if e == nil || makingVerb(lower(t.it.text)) || !strings.EqualFold(e.TimeColumn, date) {
		return
	}
	var undone []any
	var said []string
	for _, c := range e.Columns {
		if !strings.EqualFold(c.Name, s.column) {
			continue
		}
		for _, v := range c.Values {
			if notHappened(v) && !semantic.SameSpelling(v, s.value) {
				undone = append(undone, v)
				said = append(said, "'"+v+"'")
			}
		}
	}
	if len(undone) == 0 {
		return
	}
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotIn, Values: undone})
	b.und("%q keeps out the %s rows whose %s is %s: those did not take place", t.it.text, s.entity, s.column, orList(said))
}

// makingVerb reports whether a past form makes or asks for something that
// may be called off after it ("booked", "ordered"), rather than saying it
// took place ("played", "shipped").
func makingVerb(v string) bool { return semantic.MakingWord(v) }

// calledOther refuses a value said as what rows are called ("players
// called Boston", "products named Electronics") that is no name of
// theirs but a value of another column: the name holds it as a part, or
// not at all (found from outside: "how many players are called Boston"
// counted the players of Boston's teams, 48, for the 25 named so).
func (b *builder) calledOther(t *term, s sense) *Plan {
	text := " " + b.st.text + " "
	v := lower(t.it.text)
	if !strings.Contains(text, " named "+v+" ") && !strings.Contains(text, " called "+v+" ") {
		return nil
	}
	if e := b.p.entity(s.entity); e != nil && strings.EqualFold(e.Label, s.column) || semantic.NamePart(s.column) || slices.Contains(nameWords(s.column), "name") || slices.Contains(nameWords(s.column), "title") {
		return nil
	}
	return b.fail(fmt.Sprintf("quarry knows %s as a %s of %s, not as a name; to search names for it, ask with the whole name", s.value, display(s.column), display(s.entity)))
}

// openState reads "open" said of rows whose table has a date they were
// opened on and one date that closes them ("how many open accounts",
// "accounts still open") as the state: that closing date is not set. Read
// by its start date, it counted every account ever opened (found from
// outside: 1,073 for 1,037, at 1.00). "Currently" or "still" before a
// verb of that start ("students currently enrolled") says the same.
func (b *builder) openState() *Plan {
	terms := b.st.terms
	for i, t := range terms {
		if len(t.cands) == 0 || t.role != "" || t.neg {
			continue
		}
		w, now := t.it.text, b.nowBefore(t)
		if w != "open" && !(pastForm(w) && now != "") {
			continue
		}
		start := b.namedTableDate(t)
		if start == nil || !b.namesTable(start.entity, t) {
			// "how many purchase orders are still open": open is said of
			// the orders, not of their warehouse's opening (found from
			// outside: warehouses not closed, every order counted).
			continue
		}
		if len(b.st.dates) > 0 {
			// "accounts open at the end of 2025": those opened by then
			// and not closed by then, which no filter says.
			return b.fail(fmt.Sprintf("quarry cannot tell which %s were %s at a past time: those closed since would have to be counted too; ask for those %s now, or for those opened then", display(start.entity), w, w))
		}
		e := b.p.entity(start.entity)
		end := b.closingDate(e, start.column)
		if end == "" {
			continue
		}
		field := e.Name + "." + end
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: semantic.OpNull})
		b.und("%q read as the %s rows not closed: filter %s is not set", strings.TrimSpace(now+" "+w), e.Name, field)
		if now != "" {
			b.st.usedWords = append(b.st.usedWords, now)
		}
		t.role = "filter"
		if len(t.aggs) > 0 && i+1 < len(terms) && len(terms[i+1].aggs) == 0 {
			terms[i+1].aggs, t.aggs = t.aggs, nil // "how many open accounts"
		}
	}
	if pl := b.currentRows(); pl != nil {
		return pl
	}
	return b.overdueRows()
}

// overdueRows reads "overdue" said of the rows of the one table the
// question names that has a date they are due on and one date that says
// they were done (loans: due_on and returned_at; invoices: due_on and
// paid_on): due before the as-of day and not done (found from outside:
// "how many loans are overdue" not understood).
func (b *builder) overdueRows() *Plan {
	if !strings.Contains(" "+b.st.text+" ", " overdue ") {
		return nil
	}
	var ent *semantic.Entity
	var due, done string
	var valueOf *term // "overdue" as a value of a column
	for _, t := range b.st.terms {
		if strings.Contains(" "+t.it.text+" ", " overdue ") {
			if len(t.cands) == 0 || len(only(t.cands, sValue)) < len(t.cands) || valueOf != nil {
				return nil // a name with the word: is_overdue
			}
			valueOf = t
			continue
		}
		for _, c := range t.cands {
			e := b.p.entity(c.name)
			if c.kind != sEntity || e == nil || e == ent {
				continue
			}
			d, dn := b.dueAndDone(e)
			if d == "" {
				continue
			}
			if ent != nil {
				return b.fail(fmt.Sprintf("quarry cannot tell whether “overdue” is said of the %s or the %s; ask of one of them", display(ent.Name), display(e.Name)))
			}
			ent, due, done = e, d, dn
		}
	}
	if valueOf != nil {
		// A value of another table's column ("overdue", a reason fines
		// are charged for) is not said of the rows due and not done:
		// those are read by their dates, the value is left unread (found
		// from outside: "how many loans are overdue right now" counted
		// every loan ever fined for lateness, 288 for 17, at 1.00). A
		// value of the rows' own column says it of them.
		if ent == nil || done == "" || slices.ContainsFunc(valueOf.cands, func(s sense) bool { return strings.EqualFold(s.entity, ent.Name) }) {
			return nil
		}
		b.dropTerm(valueOf) // "how many overdue loans"
	}
	if ent == nil {
		return b.fail("quarry cannot tell which rows are overdue: no table the question names has one date they are due on (due_on) and one they were done on (returned_at, paid_on)")
	}
	if done == "" {
		return b.fail(fmt.Sprintf("quarry cannot tell when %s are done, so not which are overdue: %s has no one date they were done on (returned_at, paid_on)", display(ent.Name), display(ent.Name)))
	}
	day := b.st.asOf.Format("2006-01-02")
	b.q.Filters = append(b.q.Filters,
		semantic.Filter{Field: ent.Name + "." + due, Op: semantic.OpLt, Values: []any{day}},
		semantic.Filter{Field: ent.Name + "." + done, Op: semantic.OpNull})
	b.und("\"overdue\" read as the %s rows due before %s (%s) and not done (%s is not set)", ent.Name, day, due, done)
	for _, c := range ent.Columns {
		// Nor let go: a void invoice, one written off, is owed by no one
		// (found from outside: 65 written off counted as overdue).
		var never []any
		for _, v := range c.Values {
			if neverState(v) {
				never = append(never, v)
			}
		}
		if len(never) == 0 || !semantic.StatusName(c.Name) || b.p.m.IsRestricted(ent.Name, c.Name) {
			continue
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: ent.Name + "." + c.Name, Op: semantic.OpNotIn, Values: never, OrNull: true})
		b.und("\"overdue\" leaves out the %s rows whose %s is %v: those are owed by no one", ent.Name, c.Name, never)
		b.notes = append(b.notes, fmt.Sprintf("overdue leaves out the %s marked %s, which are owed by no one", display(ent.Name), orValues(never)))
		break
	}
	// "overdue right now", "currently overdue": the day is the as-of day.
	b.st.usedWords = append(b.st.usedWords, "overdue", "now", "currently", "right")
	return nil
}

// dueAndDone are e's one date its rows are due on (a name with "due")
// and its one date that says they were done (returned, paid, completed,
// closed, resolved, delivered, fulfilled, settled, submitted), "" for a
// missing or ambiguous one.
func (b *builder) dueAndDone(e *semantic.Entity) (due, done string) {
	var dues, dones []string
	for _, c := range e.Columns {
		if !c.Temporal() || b.p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		ws := nameWords(c.Name)
		switch {
		case slices.Contains(ws, "due"):
			dues = append(dues, c.Name)
		case slices.ContainsFunc(ws, func(w string) bool {
			switch w {
			case "returned", "paid", "completed", "closed", "resolved", "delivered", "fulfilled", "settled", "submitted", "done", "finished":
				return true
			}
			return false
		}):
			dones = append(dones, c.Name)
		}
	}
	if len(dues) != 1 {
		return "", ""
	}
	if len(dones) != 1 {
		return dues[0], ""
	}
	return dues[0], dones[0]
}

// namesTable reports whether a term of the question other than t names
// the table entity, or the question is about it.
func (b *builder) namesTable(entity string, t *term) bool {
	if strings.EqualFold(b.subject, entity) {
		return true
	}
	for _, u := range b.st.terms {
		if u != t && slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sEntity && strings.EqualFold(c.name, entity) }) {
			return true
		}
	}
	return false
}

// dropTerm takes t, a word read by its rows' dates instead of as a
// value, out of the terms, handing what counts it ("how many") to the
// term after it.
func (b *builder) dropTerm(t *term) {
	if i := slices.Index(b.st.terms, t); len(t.aggs) > 0 && i+1 < len(b.st.terms) && len(b.st.terms[i+1].aggs) == 0 {
		b.st.terms[i+1].aggs = t.aggs
	}
	b.st.terms = slices.DeleteFunc(b.st.terms, func(u *term) bool { return u == t })
}

// activeByDoing reports whether "active" is said of how much rows did
// ("the most active customers", "active in 2025") in text (the question's
// words between spaces), not of their state.
func activeByDoing(text string) bool {
	for _, w := range []string{"most", "least", "more", "less", "very", "highly", "fairly"} {
		if strings.Contains(text, " "+w+" active ") {
			return true
		}
	}
	for _, w := range []string{"in", "on", "during", "since", "this", "last"} {
		if strings.Contains(text, " active "+w+" ") {
			return true
		}
	}
	return false
}

// closingDate is the one date of e that closes its rows (semantic.ClosingName),
// other than column, or "".
func (b *builder) closingDate(e *semantic.Entity, column string) string {
	if ends := b.closingDates(e, column); len(ends) == 1 {
		return ends[0]
	}
	return ""
}

// closingDates are the dates of e that close its rows
// (semantic.ClosingName), other than column.
func (b *builder) closingDates(e *semantic.Entity, column string) []string {
	return closingDates(b.p.m, e, column)
}

// closingDates are the dates of e that close its rows
// (semantic.ClosingName, the role end), other than column, in m.
func closingDates(m *semantic.Model, e *semantic.Entity, column string) []string {
	var ends []string
	for _, c := range e.Columns {
		if c.Temporal() && c.TimeRole == semantic.TimeRoleEnd && !strings.EqualFold(c.Name, column) && semantic.ClosingName(c.Name) && !m.IsRestricted(e.Name, c.Name) {
			ends = append(ends, c.Name)
		}
	}
	return ends
}

// nowBefore is "currently", "still" or "now" where it is said right
// before term t ("students currently enrolled", "still active"), or "".
func (b *builder) nowBefore(t *term) string {
	text := " " + b.st.text + " "
	for _, w := range []string{"currently", "still", "now"} {
		if strings.Contains(text, " "+w+" "+t.it.text+" ") {
			return w
		}
	}
	return ""
}

// namedTableDate is the date column term t names, of one table, or of the
// one table among several that another term of the question names
// ("students currently enrolled": students.enrolled_on, not
// enrollments.enrolled_at); nil otherwise.
func (b *builder) namedTableDate(t *term) *sense {
	var dates []*sense
	for j := range t.cands {
		if c := &t.cands[j]; c.kind == sColumn && c.temporal {
			dates = append(dates, c)
		}
	}
	if len(dates) > 1 {
		var named []*sense
		for _, d := range dates {
			for _, u := range b.st.terms {
				if u != t && slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sEntity && strings.EqualFold(c.name, d.entity) }) {
					named = append(named, d)
					break
				}
			}
		}
		dates = named
	}
	if len(dates) != 1 {
		return nil
	}
	return dates[0]
}

// oneTimeTerm leaves one date for the period where the question names
// two by their verbs ("accounts opened in 2026 that are closed",
// "students who enrolled in 2021 and have graduated"): the one said right
// before the period; the other, in its past form, is a state — its date
// is set (found from outside: the year went on the closing date, 6 for 1
// and 0 for 89, at 1.00). Refused where no date is said right before the
// period.
func (b *builder) oneTimeTerm() *Plan {
	var times []*term
	for _, t := range b.st.terms {
		if t.role == "time" {
			times = append(times, t)
		}
	}
	if len(times) < 2 || len(b.st.datePos) != 1 {
		return nil
	}
	var keep *term
	for _, t := range times {
		if t.pos+1 == b.st.datePos[0] {
			keep = t
		}
	}
	if keep == nil {
		return b.fail(fmt.Sprintf("quarry could not tell which date the period is on: %s or %s; say the verb right before it (“opened in 2025”)", times[0].cands[0].field, times[1].cands[0].field))
	}
	for _, t := range times {
		if t == keep {
			continue
		}
		if !pastForm(t.it.text) || t.neg {
			return b.fail(fmt.Sprintf("quarry could not tell what %q says beside the period on %s", t.it.text, keep.cands[0].field))
		}
		s := t.cands[0]
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNotNull})
		b.und("%q read as a state: filter %s is set", t.it.text, s.field)
		t.role = "filter"
	}
	return nil
}

// roleElsewhere refuses a grouping by a table reached through one link of
// another table's rows ("goals by away team": the away team of each goal's
// match) where the measured rows also reach that table by a way of their
// own (goals through their players' teams), and the question does not
// name the table of the link: "Atlanta 107" read as the goals Atlanta
// scored away, where 107 were every goal of Atlanta's away matches, both
// sides' (found from outside, at 1.00; 49 were Atlanta's).
func (b *builder) roleElsewhere(measured string) *Plan {
	for _, d := range b.q.Dimensions {
		ent, _, ok := strings.Cut(d.Name, ".")
		e := b.p.entity(ent)
		if !ok || e == nil || e.Role == nil || strings.EqualFold(measured, e.Role.From) || b.p.hasLink(measured, e.Role) || !b.p.ownWay(measured, e.Role.Of, e.Role.From) {
			continue
		}
		named := false
		for _, t := range b.st.terms {
			named = named || slices.ContainsFunc(t.cands, func(c sense) bool { return c.kind == sEntity && strings.EqualFold(c.name, e.Role.From) })
		}
		if named {
			continue
		}
		of := singular(display(e.Role.From))
		return b.fail(fmt.Sprintf("quarry could not tell whose %s is meant: by %s, each of the %s counts under the %s of its %s, whichever side it belongs to, while %s also reach %s through %s; name the table (“… by %s of the %s”)",
			display(e.Name), display(e.Name), display(measured), display(e.Name), of, display(measured), display(e.Role.Of), display(b.p.wayVia(measured, e.Role.Of, e.Role.From)), display(e.Name), of))
	}
	return nil
}

// hasLink reports whether the rows of table from have a link of role r's
// own (Likes.student_id, where the role "student" was read from
// Friend.student_id): the role is then theirs.
func (p *Planner) hasLink(from string, r *semantic.Role) bool {
	for _, rel := range p.m.Relationships {
		if strings.EqualFold(rel.From, from) && strings.EqualFold(rel.To, r.Of) && (strings.EqualFold(rel.Name, r.Link) || strings.EqualFold(rel.FromColumn, r.FromColumn)) {
			return true
		}
	}
	return false
}

// ownWay reports whether rows of from reach table to by links of one row
// each (many-to-one, one-to-one) that do not pass through table avoid.
func (p *Planner) ownWay(from, to, avoid string) bool {
	return p.wayVia(from, to, avoid) != ""
}

// wayVia is the first table on the way ownWay finds, or "".
func (p *Planner) wayVia(from, to, avoid string) string {
	type step struct{ at, first string }
	seen := map[string]bool{lower(from): true, lower(avoid): true}
	queue := []step{{lower(from), ""}}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, r := range p.m.Relationships {
			if !strings.EqualFold(r.From, x.at) || r.Cardinality == semantic.OneToMany || r.Cardinality == semantic.ManyToMany {
				continue
			}
			y := lower(r.To)
			first := x.first
			if first == "" {
				first = r.To
			}
			if strings.EqualFold(y, to) {
				return first
			}
			if !seen[y] {
				seen[y] = true
				queue = append(queue, step{y, first})
			}
		}
	}
	return ""
}

// inMajorUnits reads a measure in cents asked "in dollars" (euros,
// pounds) as the same measure divided by 100: a total, an average, a
// minimum or a maximum of an amount in cents (its unit, or a column named
// so: balance_cents), not a derived measure nor a count (found from
// outside: "total balance in dollars" was refused, with the unit known).
// Nil where the measure is not one of those.
func (p *Planner) inMajorUnits(pl *Plan, m *semantic.Metric, read, word, unit string) *Plan {
	if unit != "usd" && unit != "eur" && unit != "gbp" || m.Derived != "" || !semantic.MinorUnit(m.Unit, m.Expr) {
		return nil
	}
	x := strings.ToUpper(strings.TrimSpace(m.Expr))
	if !strings.HasPrefix(x, "SUM(") && !strings.HasPrefix(x, "AVG(") && !strings.HasPrefix(x, "MIN(") && !strings.HasPrefix(x, "MAX(") {
		return nil
	}
	conv := *m
	conv.Name = m.Name + "_in_" + word
	conv.Expr = "(" + m.Expr + ") / 100.0"
	conv.Unit, conv.Format = strings.ToUpper(unit), "currency"
	desc := m.Description
	if desc == "" {
		desc = display(m.Name)
	}
	conv.Description = strings.Join(slices.DeleteFunc(strings.Fields(desc), func(w string) bool { return semantic.MinorUnit(w, "") }), " ") + " in " + word
	out := swapMetric(pl, m.Name, desc, conv)
	// Divided in the SQL now: not shown divided again.
	out.Notes = slices.DeleteFunc(slices.Clone(out.Notes), func(n string) bool { return strings.HasSuffix(n, centsShown) })
	out.readAs(read, fmt.Sprintf("%q: %s holds cents, divided by 100", "in "+word, display(m.Name)))
	return out
}

// swapMetric is pl with its measure old, described desc, replaced by
// conv wherever the query names it and in its title: conv is defined for
// the question.
func swapMetric(pl *Plan, old, desc string, conv semantic.Metric) *Plan {
	out := *pl
	q := *pl.Query
	out.Query = &q
	rename := func(fs []string) []string {
		fs = slices.Clone(fs)
		for i := range fs {
			if fs[i] == old {
				fs[i] = conv.Name
			}
		}
		return fs
	}
	q.Metrics, q.Hidden = rename(q.Metrics), rename(q.Hidden)
	q.Order = slices.Clone(q.Order)
	for i := range q.Order {
		if q.Order[i].Field == old {
			q.Order[i].Field = conv.Name
		}
	}
	out.AdHoc = append(slices.DeleteFunc(slices.Clone(pl.AdHoc), func(a semantic.Metric) bool { return a.Name == old }), conv)
	out.Title = strings.Replace(strings.Replace(pl.Title, upperFirst(desc), upperFirst(conv.Description), 1), desc, conv.Description, 1)
	out.Understood = slices.Clone(pl.Understood)
	out.Notes = slices.Clone(pl.Notes)
	return &out
}

// lonePartRank keeps a value that is one part of people's names (a first
// name alone: Sales) from winning, by its table's rank, over the same
// value of another column that holds no names (a department: Sales):
// "how many employees in Sales" read a first name and counted 9 for 66
// (found from outside). The best rank of those other columns is kept
// then, unless the words say a name ("named Sales"; "Sales Smith" is a
// whole name). best is the rank otherwise kept.
func (b *builder) lonePartRank(t *term, named map[string]bool, best int) int {
	text := " " + b.st.text + " "
	v := lower(t.it.text)
	if strings.Contains(text, " named "+v+" ") || strings.Contains(text, " called "+v+" ") {
		return best
	}
	part, other := 99, 99
	for _, s := range t.cands {
		r := b.rank(s.entity, named)
		if r > 2 {
			continue
		}
		if semantic.NamePart(s.column) {
			part = min(part, r)
		} else {
			other = min(other, r)
		}
	}
	if part < other && other <= 2 {
		return other
	}
	return best
}

// countryReading plans a question that names a country where the data
// also holds countries by their codes, both as asked and with the codes
// (coded: "guests from DE"), and keeps the reading that answers; where
// both do, the one whose condition is on the rows' own table ("guests
// from Germany": guests.country_code, not the country of a hotel they
// stayed at; "airlines in the USA": airlines.Country, not an airport's
// code), else it refuses, naming both. The coded reading is what the
// checks read (Plan.Read).
func (p *Planner) countryReading(asked, coded string, asOf time.Time) *Plan {
	plain := *p
	plain.uncoded = true
	a, c := plain.plan(asked, asOf), p.plan(coded, asOf)
	answered := func(x *Plan) bool { return (x.Kind == KindMetric || x.Kind == KindRows) && x.Query != nil }
	useCoded := func() *Plan {
		if c.Read == "" {
			c.Read = coded
		}
		c.Understood = append(c.Understood, fmt.Sprintf("the countries named read as their codes: %q", coded))
		return c
	}
	switch {
	case answered(c) && !answered(a):
		return useCoded()
	case !answered(c):
		return a
	}
	ownA, ownC := p.ownCondition(a), p.ownCondition(c)
	switch {
	case ownC && !ownA:
		return useCoded()
	case ownA && !ownC:
		return a
	}
	return p.unanswered(&state{}, fmt.Sprintf("quarry could not tell which countries the question means: as named (%s) or as codes (%s); ask with the column, such as “… with country code …”", filterList(a), filterList(c)))
}

// ownCondition reports whether a plan has a value condition on a column
// of the table it measures or lists.
func (p *Planner) ownCondition(pl *Plan) bool {
	subject := ""
	if pl.Query.Rows != nil {
		subject = pl.Query.Rows.Entity
	} else if len(pl.Query.Metrics) > 0 {
		subject = p.metricEntity(pl.Query.Metrics[0], pl.AdHoc)
	}
	for _, f := range pl.Query.Filters {
		ent, _, ok := strings.Cut(f.Field, ".")
		if ok && !f.OnRelated() && !f.Count && len(f.Values) > 0 && strings.EqualFold(ent, subject) {
			return true
		}
	}
	return false
}

// filterList is a plan's value conditions, as written in the query.
func filterList(pl *Plan) string {
	var out []string
	for _, f := range pl.Query.Filters {
		if len(f.Values) > 0 {
			out = append(out, fmt.Sprintf("%s %s %v", f.Field, f.Op, f.Values))
		} else if f.OnRelated() {
			out = append(out, "with "+f.Field)
		}
	}
	return strings.Join(out, ", ")
}
