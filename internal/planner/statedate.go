package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// stateDate is the date of entity that says when its rows came to be in
// the state a filter picks ("subscriptions cancelled this year": ended_on,
// "Last day of a cancelled subscription"), for a period the question does
// not give a date of its own; "" when not exactly one other date of the
// table names that state in its name, synonyms or description. Without
// it the period lands on the table's own date (when the subscription
// started), and the checks refuse the answer (verify.PeriodDate).
func (b *builder) stateDate(entity, dflt string) string {
	e := b.p.entity(entity)
	if e == nil {
		return ""
	}
	_, dcol, _ := strings.Cut(dflt, ".")
	var states []string
	for _, f := range b.q.Filters {
		if (f.Op != semantic.OpEq) || len(f.Values) != 1 || f.Count {
			continue
		}
		v, ok := f.Values[0].(string)
		if !ok {
			continue
		}
		rf, err := b.p.m.ResolveField(f.Field)
		if err == nil && rf.Kind == semantic.FieldDimension {
			// a dimension on a plain column ("subscription_status")
			rf, err = b.p.m.ResolveField(rf.Dimension.Expr)
		}
		if err != nil || rf.Kind != semantic.FieldColumn || !strings.EqualFold(rf.Entity.Name, entity) || rf.Column.Temporal() {
			continue
		}
		states = append(states, strings.ToLower(v))
	}
	if len(states) == 0 {
		return ""
	}
	// A decision's date may be named for deciding (decided_at), not for
	// the way it went: its date where the decision is said right before
	// the period ("leave requests approved in May"; found from outside:
	// dated by the leave's start, at 1.00), not where it only says which
	// rows ("days of approved leave in 2024" are days off in 2024).
	var decided []string
	for _, st := range states {
		for _, w := range strings.Fields(st) {
			if semantic.DecisionState(w) {
				decided = append(decided, w)
			}
		}
	}
	decision := len(decided) > 0 && b.saidBeforePeriod(decided)
	found := ""
	for _, c := range e.Columns {
		if !c.Temporal() || strings.EqualFold(c.Name, dcol) || b.p.m.IsRestricted(e.Name, c.Name) || semantic.PlanWord(c.Name) != "" {
			continue // a plan's date (requested_delivery_on) is not when it happened
		}
		text := strings.Join(append([]string{strings.ReplaceAll(c.Name, "_", " "), c.Description}, c.Synonyms...), " ")
		if !namesStem(text, states) && !(decision && semantic.DecisionDate(c.Name)) {
			continue
		}
		if found != "" {
			return "" // two dates could say it
		}
		found = e.Name + "." + c.Name
	}
	return found
}

// saidBeforePeriod reports whether one of words, in any form, is said
// right before the question's one period ("approved in May", "were
// rejected last year").
func (b *builder) saidBeforePeriod(words []string) bool {
	if len(b.st.dates) != 1 {
		return false
	}
	toks := tokenize(b.st.raw)
	for i, t := range toks {
		if !slices.ContainsFunc(words, func(w string) bool { return stemWord(w) == stemWord(t.s) }) {
			continue
		}
		if b.periodAfter(toks, i) {
			return true
		}
	}
	return false
}

// periodAfter reports whether the question's one period comes right after
// toks[i] ("started last year", "approved in May 2025").
func (b *builder) periodAfter(toks []token, i int) bool {
	j := i + 1
	if j < len(toks) && (toks[j].s == "in" || toks[j].s == "during" || toks[j].s == "on" || toks[j].s == "since") {
		j++
	}
	return j < len(toks) && len(b.st.dates) == 1 && toks[j].start == b.st.dates[0].Start
}

// namesStem reports whether text names one of states: each word of the
// state is a word of text, by the same stem or, for words of four
// letters or more, the same first four ("grad_date" of graduated,
// "delivery_dt" of delivered: found from outside, refused for want of
// the date). Every word: checked_out is check_out's, not check_in's
// (found from outside: both were taken, and the period refused).
func namesStem(text string, states []string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !isAlphaRune(r) })
	same := func(w, st string) bool {
		return stemWord(w) == stemWord(st) || len(w) >= 4 && len(st) >= 4 && w[:4] == st[:4]
	}
	for _, st := range states {
		sws := strings.FieldsFunc(st, func(r rune) bool { return !isAlphaRune(r) })
		all := len(sws) > 0
		for _, sw := range sws {
			all = all && slices.ContainsFunc(words, func(w string) bool { return same(w, sw) })
		}
		if all {
			return true
		}
	}
	return false
}

func isAlphaRune(r rune) bool { return r >= 'a' && r <= 'z' || r > 127 }

// applyStateDate moves a period given without a date to the date of the
// state the question picks, and says so.
func (b *builder) applyStateDate(entity, dflt string) {
	tr := b.q.TimeRange
	if tr == nil || tr.Field != "" {
		return
	}
	if b.namesOwnDate(dflt) {
		b.dropStateOfDate(entity, dflt)
		// "subscriptions started last year that have been cancelled",
		// "tickets opened last month that have been closed": the period
		// is the start's, said by its verb; the state is a condition
		// (found from outside: the period moved to ended_on and
		// closed_at, and the start dropped, at 1.00).
		if f := b.eventDate; f != "" {
			b.q.Filters = append(b.q.Filters, semantic.Filter{Field: f, Op: semantic.OpNotNull})
			b.und("filter %s is set (the event the question names, with the period on %s)", f, dflt)
		}
		if b.eventDate != "" || b.stateDate(entity, dflt) != "" {
			// Named, so that the check of the period's date sees it
			// was meant (verify.PeriodDate).
			tr.Field = dflt
			b.und("time by %s, the date the question's verb names right before the period", dflt)
		}
		return
	}
	if f := b.eventDate; f != "" {
		tr.Field = f
		b.und("time by %s, the date of the event the question names", f)
		return
	}
	if tr.From != "" && !b.st.asOf.IsZero() && tr.From > b.st.asOf.Format("2006-01-02") {
		// "appointments booked for July" on June 30th: the day a row came
		// to be in a state has passed, so a period to come is the rows'
		// own date (found from outside: 0 on booked_at, against 25).
		return
	}
	if f := b.stateDate(entity, dflt); f != "" {
		tr.Field = f
		b.und("time by %s, the date the rows came to be in the state the question picks", f)
	}
}

// grainOnState moves a time grain on the measure's own date ("cancelled
// charters by month", "… by month this year") to the date of the state
// the question picks, the period with it, as a period alone moves (found
// from outside: refused, the months being those the charters were
// scheduled in). Only for one measure counted or summed over one table,
// not a rate (periodOnState).
func (b *builder) grainOnState() {
	if b.rows || b.st.share || len(b.q.Metrics) != 1 || len(b.q.Compare) > 0 || b.eventDate != "" {
		return
	}
	m := b.metric(b.q.Metrics[0])
	if m == nil || m.Derived != "" {
		return
	}
	e := b.p.entity(m.Entity)
	if e == nil {
		return
	}
	dflt := m.Time
	if dflt == "" {
		dflt = e.Name + "." + e.TimeColumn
	}
	if tr := b.q.TimeRange; tr != nil && tr.Field != "" && !strings.EqualFold(tr.Field, dflt) {
		return // a period on a date the question named
	}
	for i, d := range b.q.Dimensions {
		if d.Grain == "" || strings.Contains(d.Name, ".") || b.p.m.Dimension(d.Name) != nil {
			continue
		}
		f := b.stateDate(e.Name, dflt)
		if f == "" {
			return
		}
		b.q.Dimensions[i].Name = f
		b.und("by %s of %s, the date the rows came to be in the state the question picks", d.Grain, f)
		if tr := b.q.TimeRange; tr != nil {
			tr.Field = f
			b.und("time by %s, the date the rows came to be in the state the question picks", f)
		}
		return
	}
}

// dropStateOfDate drops the filter on a state whose word is the verb that
// names the period's date: "total amount paid last month" is the
// payments whose paid_on is in May, the late ones too, not those whose
// status is 'paid' (found from outside: 273,680 against 319,447, at
// 1.00). The date says the thing happened then; the state is what it is
// now, and may have moved on (paid, then late; shipped, then delivered).
func (b *builder) dropStateOfDate(entity, date string) {
	_, col, _ := strings.Cut(date, ".")
	name := strings.ReplaceAll(col, "_", " ")
	b.q.Filters = slices.DeleteFunc(b.q.Filters, func(f semantic.Filter) bool {
		if f.Op != semantic.OpEq || len(f.Values) != 1 || f.Count {
			return false
		}
		v, ok := f.Values[0].(string)
		if !ok || !pastForm(strings.ToLower(v)) || !namesStem(name, []string{strings.ToLower(v)}) {
			return false
		}
		said := 0
		for _, t := range tokenize(b.st.raw) {
			if stemWord(t.s) == stemWord(strings.ToLower(v)) {
				said++
			}
		}
		if said > 1 {
			return false // the state said on its own too: "submitted tickets were submitted in 2025"
		}
		rf, err := b.p.m.ResolveField(f.Field)
		if err != nil || rf.Kind != semantic.FieldColumn || !strings.EqualFold(rf.Entity.Name, entity) || rf.Column.Temporal() {
			return false
		}
		b.und("%q read as the event %s names, not the state %s = '%s'", v, date, f.Field, v)
		return true
	})
}

// namesOwnDate reports whether a past form in the question names the
// date dflt (entity.column) right before the question's one period, as
// the date parser found it: by its stem ("started last year" for
// started_on) or, for the date a row was made on, a verb of making
// ("orders placed last month" for ordered_at).
func (b *builder) namesOwnDate(dflt string) bool {
	ent, col, ok := strings.Cut(dflt, ".")
	if !ok || len(b.st.dates) != 1 {
		return false
	}
	made := false
	if c := b.p.column(ent, col); c != nil {
		made = c.TimeRole == semantic.TimeRoleStart || c.TimeRole == semantic.TimeRoleEvent
	}
	toks := tokenize(b.st.raw)
	for i, t := range toks {
		switch w := t.s; {
		case !pastForm(w):
			continue
		case namesStem(strings.ReplaceAll(col, "_", " "), []string{w}):
		case made && (w == "placed" || w == "created" || w == "made" || w == "submitted" || w == "filed" || w == "raised" || w == "opened" || w == "logged"):
		default:
			continue
		}
		// The period right after the verb ("started last year", "opened
		// in May 2026"), not a state said between them.
		if b.periodAfter(toks, i) {
			return true
		}
	}
	return false
}

// ownDateSaid reports whether the question names entity's own date (its
// time column, not column) by a verb right before its period.
func (b *builder) ownDateSaid(entity, column string) bool {
	e := b.p.entity(entity)
	return e != nil && e.TimeColumn != "" && !strings.EqualFold(e.TimeColumn, column) && b.namesOwnDate(e.Name+"."+e.TimeColumn)
}

// periodOnState applies stateDate to a list of rows, or to one measure
// counted or summed over one table, dated by that table's own date. A
// rate of such a state over a period is refused: dated by the state's
// date it is 100% (only the cancelled have one; found on a replay of an
// outside tester's "cancelled rate of subscriptions in 2025"), and by the
// table's own it is the rate of those started then, which the question
// may not mean.
func (b *builder) periodOnState() *Plan {
	entity, dflt := "", ""
	switch {
	case b.rows:
		entity = b.subject
	case len(b.q.Metrics) == 1:
		m := b.metric(b.q.Metrics[0])
		if m == nil || m.Derived != "" {
			return nil
		}
		entity, dflt = m.Entity, m.Time
	default:
		return nil
	}
	e := b.p.entity(entity)
	if e == nil {
		return nil
	}
	if dflt == "" {
		dflt = e.Name + "." + e.TimeColumn
	}
	if b.st.share {
		if f := b.stateDate(entity, dflt); f != "" && b.eventDate == "" {
			return b.fail(fmt.Sprintf("a rate of %s over a period may be of the rows made then (by %s) or of those that came to the state then (by %s), and quarry does not guess which; ask how many came to it in the period, or name the date of the rows the rate is of", display(entity), dflt, f))
		}
		return nil
	}
	b.applyStateDate(entity, dflt)
	return nil
}

// othersValue reports whether it is only a value of other tables than
// the one next names: "new patients last month", where 'new' is a visit
// type of appointments, are the patients made then (found from outside:
// read as patients with a new-patient visit). A value of the table
// itself ("new tickets", status 'new') stays the value.
func (p *Planner) othersValue(it, next item) bool {
	if it.kind != itTerm || len(it.senses) == 0 || len(only(it.senses, sValue)) != len(it.senses) || next.kind != itTerm {
		return false
	}
	for _, n := range next.senses {
		if n.kind != sEntity {
			continue
		}
		for _, v := range it.senses {
			if strings.EqualFold(v.entity, n.name) {
				return false
			}
		}
		return true
	}
	return false
}

// newRows reads "new" before a table in a question with a period ("new
// products this year", "how many new employees in 2025") as the rows
// made in the period, which is how a period on a table's own date reads:
// the word is read past, and the checks still see it ("new" says made
// then). Only before a table, or a plain count of one: "new
// subscribers" counted by a metric of those active now would leave out
// those who started and left, and "new revenue" may mean revenue from
// new customers; both stay unknown.
func (p *Planner) newRows(items []item) []item {
	dated := false
	for _, it := range items {
		dated = dated || it.kind == itDate
	}
	if !dated {
		return items
	}
	for i := 0; i+1 < len(items); i++ {
		if items[i].text != "new" || items[i].kind != itUnknown && !p.othersValue(items[i], items[i+1]) {
			continue
		}
		j := i + 1 // past values: "new web orders"
		for j < len(items) && items[j].kind == itTerm && len(items[j].senses) > 0 && len(only(items[j].senses, sValue)) == len(items[j].senses) {
			j++
		}
		if j == len(items) || items[j].kind != itTerm {
			continue
		}
		table, plain := false, true
		for _, s := range items[j].senses {
			switch s.kind {
			case sEntity:
				table = true
			case sMetric:
				m := p.m.Metric(s.name)
				plain = plain && m != nil && isCount(m) && len(m.Filters) == 0
			}
		}
		if table && plain {
			items[i].kind = itStop
		}
	}
	return items
}

// otherRowsPeriod is the title of a period on a date of other rows than
// those measured: "revenue from customers who signed up in 2025" is
// titled "from customers with signup date in 2025", never "2025", which
// reads as the revenue's own period.
func (b *builder) otherRowsPeriod(field, label string) string {
	if field == "" || b.rows {
		return label
	}
	f, ok := b.p.m.ColumnField(field)
	if !ok {
		return label
	}
	if len(b.q.Metrics) == 0 && strings.EqualFold(b.subject, f.Entity.Name) {
		return label
	}
	for _, m := range b.q.Metrics {
		if mt := b.metric(m); mt == nil || mt.Derived == "" && strings.EqualFold(mt.Entity, f.Entity.Name) || strings.EqualFold(b.p.m.MetricTime(mt), f.Entity.Name+"."+f.Column.Name) {
			return label
		}
	}
	return fmt.Sprintf("from %s with %s %s", display(f.Entity.Name), display(f.Column.Name), inLabel(label))
}

// inLabel is a period's label after a noun: "in 2025", "last month (May
// 2026)".
func inLabel(label string) string {
	if l := lower(label); l != "" && (l[0] >= '0' && l[0] <= '9' || !strings.HasPrefix(l, "this ") && !strings.HasPrefix(l, "next ") && !strings.HasPrefix(l, "last ") && !strings.HasPrefix(l, "since ") && !strings.HasPrefix(l, "before ") && !strings.HasPrefix(l, "after ") && !strings.HasPrefix(l, "by ") && !strings.HasPrefix(l, "until ")) {
		return "in " + label
	}
	return label
}

// relatedStatePeriod refuses a period said right after the state of
// related rows ("candidates hired this year": applications whose stage
// is 'hired') that was put on the counted rows' own date, which the
// question does not name: the candidates created this year who were
// ever hired are not those hired this year (found from outside: 32 for
// 40, at 1.00, the answer saying "created"). The asker can name either.
// pl otherwise.
func (p *Planner) relatedStatePeriod(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Query.TimeRange == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	var states []string
	for _, f := range pl.Query.Filters {
		if f.Op != semantic.OpSome || f.Count {
			continue
		}
		for _, w := range f.Where {
			_, col, _ := strings.Cut(w.Field, ".")
			if w.Op != semantic.OpEq || !semantic.StatusName(col) || len(w.Values) != 1 {
				continue
			}
			if v, ok := w.Values[0].(string); ok {
				states = append(states, strings.ToLower(v))
			}
		}
	}
	if len(states) == 0 {
		return pl
	}
	field := pl.Query.TimeRange.Field
	if m := pl.over(p.m); field == "" && len(pl.Query.Metrics) == 1 && m.Metric(pl.Query.Metrics[0]) != nil {
		field = m.MetricTime(m.Metric(pl.Query.Metrics[0]))
	} else if field == "" && pl.Query.Rows != nil {
		if e := p.entity(pl.Query.Rows.Entity); e != nil && e.TimeColumn != "" {
			field = e.Name + "." + e.TimeColumn
		}
	}
	subject := ""
	if m := pl.over(p.m); len(pl.Query.Metrics) == 1 && m.Metric(pl.Query.Metrics[0]) != nil {
		subject = m.Metric(pl.Query.Metrics[0]).Entity
	} else if pl.Query.Rows != nil {
		subject = pl.Query.Rows.Entity
	}
	if ent, _, _ := strings.Cut(field, "."); subject == "" || !strings.EqualFold(ent, subject) {
		return pl // on the related rows' date: theirs
	}
	toks := tokenize(question)
	for i, t := range toks {
		if i+1 >= len(toks) || !slices.ContainsFunc(states, func(v string) bool { return stemWord(v) == stemWord(t.s) }) {
			continue
		}
		j := i + 1
		when := func(w string) bool {
			return w != "by" && w != "per" && (isPeriodStart(w) || w == "today" || w == "yesterday" || w == "next" || isNumber(w))
		}
		for j+1 < len(toks) && j < i+3 && (toks[j].s == "a" || toks[j].s == "an" || toks[j].s == "the" || toks[j].s == "any" || j > i+1 || p.wordOfTable(toks[j].s)) && !when(toks[j].s) {
			j++ // "placed an order this year"
		}
		if !when(toks[j].s) {
			continue // "hired by Anna": no period said of it
		}
		_, col, _ := strings.Cut(field, ".")
		if field != "" && namesStem(strings.ReplaceAll(col, "_", " "), []string{t.s}) {
			return pl // the period is on the state's own date
		}
		on := field
		if on == "" {
			on = "the counted rows' own date"
		}
		return p.unanswered(&state{}, fmt.Sprintf("the period is said of when they were %s, but it would go on %s, the day each row was made; ask for those made in the period who were %s, or name the date the period is of", t.s, on, t.s))
	}
	return pl
}

// overlapHeld reads a period on the start of related rows that last
// (time off from starts_on to ends_on, an end that is the last day held:
// semantic.RunsOut) as the rows that overlap it, where the question says
// nothing of their starting, by its words or by the start's own name
// ("signed a lease", "opened a ticket" keep the start): "employees with time off
// next week" are those off on any day of it, not those whose time off
// begins then (found from outside: 12 for 40, at 0.85). "Time off
// starting next week" keeps the start. pl otherwise.
func (p *Planner) overlapHeld(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	for _, t := range tokenize(question) {
		switch t.s {
		case "start", "starts", "starting", "started", "begin", "begins", "beginning", "began", "begun", "booked", "requested", "made", "created", "new":
			return pl
		}
	}
	var out *Plan
	for i, f := range pl.Query.Filters {
		if f.Op != semantic.OpSome || f.Count || len(f.Where) < 2 {
			continue
		}
		lo, hi := -1, -1
		for j, w := range f.Where {
			if w.Op == semantic.OpGe && len(w.Values) == 1 {
				lo = j
			}
			if w.Op == semantic.OpLt && len(w.Values) == 1 && lo >= 0 && strings.EqualFold(w.Field, f.Where[lo].Field) {
				hi = j
			}
		}
		if lo < 0 || hi < 0 {
			continue
		}
		fd, ok := p.m.ColumnField(f.Where[lo].Field)
		if !ok || fd.Column.TimeRole != semantic.TimeRoleStart || namesStem(question, dateWords(fd.Column.Name)) {
			continue // "customers who opened a ticket last month": its opening
		}
		var end *semantic.Column
		for k, c := range fd.Entity.Columns {
			if c.TimeRole == semantic.TimeRoleEnd && c.Temporal() && !p.m.IsRestricted(fd.Entity.Name, c.Name) {
				if end != nil {
					end = nil
					break
				}
				end = &fd.Entity.Columns[k]
			}
		}
		if end == nil || !semantic.RunsOut(end.Name) {
			continue // a ticket closed: how it turned out, not how long it held
		}
		if out == nil {
			q := *pl.Query
			q.Filters = slices.Clone(q.Filters)
			cp := *pl
			cp.Query, cp.Notes, cp.Understood = &q, slices.Clone(pl.Notes), slices.Clone(pl.Understood)
			out = &cp
		}
		from, to := f.Where[lo].Values[0], f.Where[hi].Values[0]
		ref := fd.Entity.Name + "." + end.Name
		where := slices.Clone(f.Where)
		where[lo] = semantic.Filter{Field: ref, Op: semantic.OpGe, Values: []any{from}, OrNull: true}
		// Time off cancelled, a request declined: it never held (found
		// from outside: 43 for 40, cancelled requests counted).
		for _, c := range fd.Entity.Columns {
			cref := fd.Entity.Name + "." + c.Name
			if !semantic.StatusName(c.Name) || p.m.IsRestricted(fd.Entity.Name, c.Name) || slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return strings.EqualFold(w.Field, cref) }) {
				continue
			}
			var off []any
			for _, v := range c.Values {
				if semantic.CalledOff(v) {
					off = append(off, v)
				}
			}
			if len(off) > 0 {
				where = append(where, semantic.Filter{Field: cref, Op: semantic.OpNotIn, Values: off, OrNull: true})
				out.Notes = append(out.Notes, fmt.Sprintf("the %s marked %s are left out: they never held", display(fd.Entity.Name), orValues(off)))
				break
			}
		}
		nf := f
		nf.Where = where
		out.Query.Filters[i] = nf
		note := fmt.Sprintf("the %s that overlap the period: %s before %v, and %s on or after %v or not set", display(fd.Entity.Name), f.Where[lo].Field, to, ref, from)
		out.Notes = append(out.Notes, note)
		out.Understood = append(out.Understood, note)
	}
	if out == nil {
		return pl
	}
	return out
}

// dateWords are the words of a date column's name less those that only
// say it is a date: "signed" of signed_at.
func dateWords(column string) []string {
	var out []string
	for _, w := range nameWords(column) {
		switch w {
		case "at", "on", "date", "dt", "ts", "time", "day":
			continue
		}
		out = append(out, w)
	}
	return out
}

// wordOfTable reports whether w names a table of the knowledge ("order").
func (p *Planner) wordOfTable(w string) bool {
	ss, _ := p.lex.get(w)
	return len(only(ss, sEntity)) > 0
}
