package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// heldAt reads a count of rows that have a start and an end ("how many
// employees did we have at the end of 2025", "how many members did we
// have by March") as the rows held on that day: begun before it and not
// yet ended by it (the end empty, or on or after the day), where the
// question asks what was had ("have", "had", "were there") rather than
// what began ("hired by the end of 2025" stays the hires). Found from
// outside: the employees hired by then, those who had left included, at
// 1.00.
func (p *Planner) heldAt(question string, asOf time.Time, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 || len(pl.Query.Compare) > 0 {
		return pl
	}
	tr := pl.Query.TimeRange
	// "how many members do we have in all": every one on record, which
	// the question back's option says (found from outside: those whose
	// membership had run out were left out of it).
	now := tr == nil && nowSaid(question) && !allSaid(question)
	if now {
		// "how many staff do we have": those not gone by today (found
		// from outside: 108 staff, 43 of whom had left).
		tr = &semantic.TimeRange{To: asOf.AddDate(0, 0, 1).Format("2006-01-02")}
	} else if tr == nil || tr.From != "" || tr.To == "" || !hadSaid(question) || madeSaid(question) {
		// "members who have a premium plan and joined before 2025": the
		// period is of their joining, not a day they were had on (found
		// from outside: those who had cancelled since counted).
		return pl
	}
	m := pl.over(p.m)
	mt := m.Metric(pl.Query.Metrics[0])
	if mt == nil || exprStarts(mt.Expr, "COUNT(DISTINCT") || strings.Contains(strings.ToUpper(mt.Expr), "CASE") {
		return pl
	}
	if !isCount(mt) && (!now || mt.Derived != "" || len(mt.Filters) > 0 ||
		!exprStarts(mt.Expr, "SUM(") && !exprStarts(mt.Expr, "AVG(") && !exprStarts(mt.Expr, "MIN(") && !exprStarts(mt.Expr, "MAX(")) {
		// A measure of what the rows hold is of those had now where the
		// question says now: "which department has the highest total
		// salary" pays no one who left (found from outside: it did, at
		// 1.00).
		return pl
	}
	e := m.Entity(mt.Entity)
	if e == nil {
		return pl
	}
	ends := heldEnds(m, e)
	if len(ends) == 0 || stateNotInForce(pl.Query.Filters) {
		return pl
	}
	var conds []string
	q := *pl.Query
	q.Filters = slices.Clone(q.Filters)
	for _, end := range ends {
		ref := e.Name + "." + end.Name
		if readsColumn(m, pl.Query, []*semantic.Metric{mt}, ref, end.Name) {
			return pl
		}
		// A last day the row holds for (end_date, expires_on) is a day
		// it is still had on; a day something closed it (terminated_on)
		// is not.
		bound, cond := tr.To, fmt.Sprintf("%s empty or on or after %s", ref, tr.To)
		if day, err := time.Parse("2006-01-02", tr.To); err == nil && semantic.RunsOut(end.Name) {
			bound = day.AddDate(0, 0, -1).Format("2006-01-02")
			cond = fmt.Sprintf("%s (the last day held) empty or on or after %s", ref, bound)
		}
		conds = append(conds, cond)
		q.Filters = append(q.Filters, semantic.Filter{Field: ref, Op: semantic.OpGe, Values: []any{bound}, OrNull: true})
	}
	if now {
		// Begun by then too: a membership that starts next week, marked
		// active already, is not had yet (found from outside: "how many
		// memberships are currently active" counted 3 pre-registered,
		// at 1.00).
		if start := m.StartColumn(e.Name); start != "" && !readsColumn(m, pl.Query, []*semantic.Metric{mt}, start, strings.TrimPrefix(start, e.Name+".")) {
			q.Filters = append(q.Filters, semantic.Filter{Field: start, Op: semantic.OpLt, Values: []any{tr.To}, OrNull: true})
			conds = append(conds, fmt.Sprintf("%s empty or before %s", start, tr.To))
		}
	}
	pl.Query = &q
	// "living pets", "right now": the words read, not passed over.
	right := strings.Contains(" "+join(tokenize(question))+" ", " right now ")
	pl.Ignored = slices.DeleteFunc(slices.Clone(pl.Ignored), func(w string) bool {
		return w == "living" || w == "alive" || w == "now" || w == "currently" || w == "right" && right
	})
	pl.Understood = append(pl.Understood, fmt.Sprintf("held on %s: %s", tr.To, strings.Join(conds, ", and ")))
	if pl.Query.TimeRange == nil {
		pl.Notes = append(pl.Notes, fmt.Sprintf("the %s there now: %s", display(e.Name), strings.Join(conds, ", and ")))
		return pl
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("the %s had on the day: begun before %s and not ended by then (%s)", display(e.Name), tr.To, strings.Join(conds, ", and ")))
	return pl
}

// stateNotInForce reports whether filters keep rows by a status that is
// not one of being in force ('lapsed', 'pending', 'expired'): the state
// says which rows are meant, and those are no rows had now (found from
// outside: "how many lapsed policies are there" kept the 51 of 61 whose
// term had not run out, at 1.00).
func stateNotInForce(filters []semantic.Filter) bool {
	for _, f := range filters {
		if !statusField(f.Field) || f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		for _, v := range f.Values {
			if !semantic.InForce(fmt.Sprint(v)) {
				return true
			}
		}
	}
	return false
}

// nowSaid reports whether a question asks what is had now, with no
// period: "do we have", "are there", "currently".
func nowSaid(question string) bool {
	toks := tokenize(question)
	for i, t := range toks {
		switch t.s {
		case "currently", "now", "headcount", "alive":
			return true
		case "living":
			// "living pets", "pets still living"; not "customers living
			// in Lyon", which says where.
			if i+1 == len(toks) || !livingWhere[toks[i+1].s] {
				return true
			}
		case "work", "works":
			// "how many staff work at Downtown" (found from outside:
			// 22, 10 of whom had left); not "work orders".
			if i+1 < len(toks) && (toks[i+1].s == "at" || toks[i+1].s == "in" || toks[i+1].s == "for") {
				return true
			}
		case "have", "has":
			if i > 0 && (toks[i-1].s == "we" || toks[i-1].s == "they" || toks[i-1].s == "it" || toks[i-1].s == "company") {
				return true
			}
			// "which location has the fewest staff" (found from outside:
			// ranked by every employee it ever had); not "customers who
			// have placed orders".
			if i+1 < len(toks) && rankedAfterHave[toks[i+1].s] {
				return true
			}
			// "how many drivers does each carrier have" (found from
			// outside: those who had left counted).
			if i == len(toks)-1 && slices.ContainsFunc(toks[:i], func(t token) bool { return t.s == "does" || t.s == "do" }) {
				return true
			}
		case "there":
			if i > 0 && (toks[i-1].s == "are" || toks[i-1].s == "is") {
				return true
			}
		}
	}
	return false
}

// livingWhere follow "living" where it says where rows live.
var livingWhere = map[string]bool{"in": true, "at": true, "on": true, "near": true, "with": true, "outside": true, "abroad": true, "overseas": true, "within": true, "by": true, "close": true, "inside": true, "around": true}

// rankedAfterHave follow "has" where it says what a row has now: "has
// the most", "has fewer than 5".
var rankedAfterHave = map[string]bool{"the": true, "most": true, "fewest": true, "least": true, "more": true, "fewer": true, "less": true, "over": true, "under": true, "no": true}

// hadSaid reports whether a question asks what was had: "have", "had",
// "has", or "there" after a form of be ("how many were there").
func hadSaid(question string) bool {
	toks := tokenize(question)
	for i, t := range toks {
		switch t.s {
		case "have", "had", "has", "headcount":
			return true
		case "there":
			if i > 0 && (toks[i-1].s == "were" || toks[i-1].s == "was" || toks[i-1].s == "are" || toks[i-1].s == "is") {
				return true
			}
		}
	}
	return false
}

// heldOrAll asks which rows are meant where a measure with no period is
// of a table whose rows are let go by a date (employees gone by their
// termination_date: semantic.HoldingEnd) and the question says neither
// now nor in all: every row on record, or those still had (found from
// outside: "how many employees in Finance" counted 35, six of whom had
// left, and "average salary by department" paid those gone, at 1.00).
// The options are the question said plainly either way ("… in all",
// "… currently"), each of which is answered.
func (p *Planner) heldOrAll(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows || pl.Query.TimeRange != nil || len(pl.Query.Compare) > 0 || allSaid(question) ||
		len(pl.Query.Order) > 0 || pl.Query.Limit > 0 || strings.ContainsAny(strings.TrimRight(strings.TrimSpace(question), "?.! "), "?.!") {
		// A ranking ("the breed with the most dogs") ranks every row on
		// record unless it asks what a row has now ("has the most"); and
		// a question of two sentences has no one place for the words.
		return pl
	}
	m := pl.over(p.m)
	var e *semantic.Entity
	var mts []*semantic.Metric
	for _, name := range pl.Query.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || len(mt.Filters) > 0 || m.Entity(mt.Entity) == nil || e != nil && !strings.EqualFold(e.Name, mt.Entity) {
			return pl // a measure that says its rows (active subscribers)
		}
		if x := strings.ToUpper(mt.Expr); strings.Contains(x, "CASE") || !exprStarts(mt.Expr, "COUNT(") && !exprStarts(mt.Expr, "AVG(") && !exprStarts(mt.Expr, "MIN(") && !exprStarts(mt.Expr, "MAX(") && !exprStarts(mt.Expr, "SUM(") {
			// A share of every row ("cancelled rate of subscriptions").
			// A total is asked like the rest: the salaries of those who
			// left add to "total salary by department" (found from
			// outside: answered so at 1.00).
			return pl
		}
		e, mts = m.Entity(mt.Entity), append(mts, mt)
	}
	if rows := pl.Query.Rows; rows != nil {
		// "list staff at Rive Gauche Paris": those who left too, with
		// nothing to tell them (found from outside, at 1.00); a list that
		// shows the date that ends them tells it.
		e = m.Entity(rows.Entity)
		if e == nil || len(pl.Query.Metrics) > 0 || NamedRows(m, pl.Query, e) {
			return pl // "who is Riley Page": the one named
		}
		for _, c := range rows.Columns {
			for _, end := range heldEnds(m, e) {
				if strings.EqualFold(c, end.Name) || strings.EqualFold(c, e.Name+"."+end.Name) {
					return pl
				}
			}
		}
	}
	if e == nil {
		return pl
	}
	for _, f := range pl.Query.Filters {
		if statusField(f.Field) {
			return pl // "cancelled subscriptions", "active members": a state said
		}
		if f.OnRelated() || f.Count {
			return pl // "dogs that went through a treatment": what they did, ever
		}
		if fld, ok := m.ColumnField(f.Field); ok && semantic.YesNo(*fld.Column) && holdingFlag(fld.Column.Name) {
			return pl // "active employees": the flag says who is here
		}
	}
	for _, d := range pl.Query.Dimensions {
		if statusField(d.Name) {
			return pl // "staff by status": the states are what is asked
		}
	}
	ends := heldEnds(m, e)
	for _, end := range ends {
		if readsColumn(m, pl.Query, mts, e.Name+"."+end.Name, end.Name) {
			return pl
		}
	}
	names := passedEnds(ends)
	if len(names) == 0 {
		return pl
	}
	asked := strings.TrimRight(strings.TrimSpace(question), "?.! ")
	things := lower(display(e.Name))
	a := "a "
	if strings.ContainsRune("aeiou", rune(names[0][0])) {
		a = "an "
	}
	return clarify(fmt.Sprintf("Every one of the %s on record, those with %s%s too, or only those here now (no %s)?", things, a, strings.Join(names, " or "), strings.Join(names, " or ")),
		asked+" in all", asked+" currently")
}

// holdingFlag reports whether a yes/no column says whether a row is still
// had ("is_active", "archived", "terminated"): a state, where "remote"
// (is_remote) or "insured" is only a kind of row, and "how many employees
// are remote" still asks whether those who left count (found from
// outside: they were counted, at 1.00).
func holdingFlag(column string) bool {
	adj := semantic.FlagAdjective(column)
	switch adj {
	case "active", "inactive", "current", "former", "live", "open", "closed", "enabled", "disabled", "employed", "valid":
		return true
	}
	return strings.HasSuffix(adj, "ed")
}

// passedEnds are the names of the ends that are empty until a row goes
// (not set when it begins: setAhead), as display writes them: those a
// question back about rows that ended names.
func passedEnds(ends []*semantic.Column) []string {
	var names []string
	for _, end := range ends {
		if !setAhead(end.Name) {
			names = append(names, display(end.Name))
		}
	}
	return names
}

// heldEnds are e's dates that let its rows go (semantic.HoldingEnd:
// terminated_at, churned_at; a lease's end_date and terminated_on),
// where e's rows are things had between their start and those ends: a
// row is had on a day none of them is before. None where e has no such
// date, an end of another kind (a ticket resolved), or its rows are
// events (orders) made, not held. A thing bought (purchased_on, an event)
// and retired is had between the two (found from outside: every retired
// van counted).
func heldEnds(m *semantic.Model, e *semantic.Entity) []*semantic.Column {
	var ends []*semantic.Column
	for i, c := range e.Columns {
		if c.TimeRole == semantic.TimeRoleEnd && c.Temporal() && !m.IsRestricted(e.Name, c.Name) && !semantic.DeletionDate(c) {
			if semantic.OthersEnd(e.Name, c.Name) {
				continue // a trial's end: the subscription goes on
			}
			if !semantic.HoldingEnd(e.Name, c.Name) {
				return nil
			}
			ends = append(ends, &e.Columns[i])
		}
	}
	if c := e.Column(e.TimeColumn); c != nil && c.TimeRole == semantic.TimeRoleEvent {
		for _, end := range ends {
			if !semantic.RetiredEnd(end.Name) {
				return nil
			}
		}
	}
	return ends
}

// setAhead reports whether an end date's name says it is set when the
// row begins (expires_on, valid_until): every row has one, and "here
// now" is not that it is empty.
func setAhead(column string) bool {
	for _, w := range semantic.NameWords(column) {
		switch w {
		case "expires", "expiry", "expired", "expiration", "valid", "until", "due":
			return true
		}
	}
	return false
}

// allSaid reports whether a question says it means every row on record:
// "in all", "ever", "all time", "altogether".
func allSaid(question string) bool {
	toks := tokenize(question)
	for i, t := range toks {
		switch t.s {
		case "ever", "altogether", "alltime":
			return true
		case "all":
			if i > 0 && (toks[i-1].s == "in" || toks[i-1].s == "of") || i+1 < len(toks) && toks[i+1].s == "time" {
				return true
			}
		}
	}
	return false
}

// flowAtADay refuses a measure of what happens (revenue, orders) asked
// at a day rather than over a period ("revenue at the start of the
// year", "revenue at the end of last year"): read as every row up to the
// day, it would add up all history before it (found from outside:
// $6,610,111.31 for "revenue at the end of last year", at 1.00). What
// was had on a day (heldAt) and how many things there were by then
// (customers) are left as they are.
func (p *Planner) flowAtADay(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows || pl.Query.TimeRange == nil || pl.Query.TimeRange.From != "" || pl.Query.TimeRange.To == "" {
		return pl
	}
	period := pl.Period
	if pl.Kind == KindRows {
		period = pl.Title // a list's title holds its period
	}
	if !strings.Contains(period, "at the start of") && !strings.Contains(period, "by the end of") && !strings.Contains(period, "at the end of") {
		return pl
	}
	if at := strings.Contains(period, "at the "); at && madeSaid(question) {
		// "employees hired at the start of the year", "customers who
		// signed up at the end of 2025": made on a day, or in the weeks
		// around it? Not everyone made by then (found from outside:
		// 51 hires listed for the 2 of January).
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%s is a day, and the rows were made over time: ask for the period they were made in (“… in January 2026”, “… in December 2025”), or “by the end of …” for all made up to then", strings.TrimSpace(period[strings.Index(period, "at the "):]))}
	}
	if pl.Kind == KindRows {
		return pl
	}
	m := pl.over(p.m)
	for _, name := range pl.Query.Metrics {
		if mt := m.Metric(name); mt != nil && len(mt.Filters) > 0 && !p.eventDated(m, mt) {
			// "members at the start of the year" of active subscribers:
			// a state held today, which says nothing of that day (found
			// from outside: 667 for about 986, at 1.00).
			return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%s keeps to rows in that state now (%s), and quarry has no history of that state to tell which were in it %s; ask for it now, or for those started before the day", display(name), strings.Join(mt.Filters, " and "), strings.TrimSpace(pl.Period))}
		}
	}
	if slices.ContainsFunc(pl.Query.Filters, func(f semantic.Filter) bool { return f.OrNull }) {
		return pl // held on the day
	}
	for _, name := range pl.Query.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			return pl
		}
		if p.thingCount(m, mt) {
			continue
		}
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%s is added up over a period, and %s is a day: read so, it would add up every row before that day; ask for a period (“%s in December 2025”, “%s so far this year”) or for it now", display(name), strings.TrimSpace(pl.Period), display(name), display(name))}
	}
	return pl
}

// eventDated reports whether mt's rows are events (orders) or pieces of
// work (tickets), dated by when they happened.
func (p *Planner) eventDated(m *semantic.Model, mt *semantic.Metric) bool {
	e := m.Entity(mt.Entity)
	if e == nil {
		return false
	}
	c := e.Column(e.TimeColumn)
	return c != nil && c.TimeRole == semantic.TimeRoleEvent || semantic.Outcomes(e)
}

// madeSaid reports whether a question says rows were made: "new",
// "hired", "signed up", "joined", "launched", "started", "created",
// "opened", "registered", "placed".
func madeSaid(question string) bool {
	for _, t := range tokenize(question) {
		switch t.s {
		case "new", "hired", "signed", "joined", "launched", "started", "created", "opened", "registered", "placed", "onboarded", "added", "acquired", "made":
			return true
		}
	}
	return false
}

// thingCount reports whether mt counts things one has (customers,
// employees, subscriptions), not events (orders) nor pieces of work
// (tickets), nor an amount.
func (p *Planner) thingCount(m *semantic.Model, mt *semantic.Metric) bool {
	e := m.Entity(mt.Entity)
	if !isCount(mt) || e == nil || semantic.Outcomes(e) {
		return false
	}
	c := e.Column(e.TimeColumn)
	return c == nil || c.TimeRole != semantic.TimeRoleEvent
}

// stillReadPast refuses a count or a list that read "still" or
// "currently" past, of a table with a date that may end its rows and no
// condition on it or on a state: read past, the word would count the
// rows gone too (found from outside: "how many tenants are still with
// us" counted every tenant who ever moved in, at 1.00, learn having
// given moved_out_on no role).
func (p *Planner) stillReadPast(pl *Plan) *Plan {
	word := ""
	for _, w := range pl.Ignored {
		if w == "still" || w == "currently" {
			word = w
		}
	}
	if word == "" || pl.Query == nil {
		return nil
	}
	m := pl.over(p.m)
	var ents []*semantic.Entity
	if pl.Kind == KindRows && pl.Query.Rows != nil {
		ents = append(ents, m.Entity(pl.Query.Rows.Entity))
	}
	for _, name := range pl.Query.Metrics {
		mt := m.Metric(name)
		if mt != nil && len(mt.Filters) > 0 {
			return nil // a measure that says its rows ("unresolved tickets")
		}
		if mt != nil && isCount(mt) {
			ents = append(ents, m.Entity(mt.Entity))
		}
	}
	for _, f := range pl.Query.Filters {
		if statusField(f.Field) || f.OnRelated() {
			return nil // a state said: "still open"
		}
		fd, ok := m.ColumnField(f.Field)
		if !ok || f.Op != semantic.OpNotNull && (fd.Column.Temporal() || semantic.YesNo(*fd.Column)) {
			// A condition that may say it: "currently overdue", "still
			// active" (is_active). A value says nothing of it: "tenants
			// in Riverton still with us" is read past as before.
			return nil
		}
	}
	for _, e := range ents {
		if e == nil {
			continue
		}
		for _, c := range e.Columns {
			if c.Temporal() && (c.TimeRole == semantic.TimeRoleEnd || semantic.HoldingEnd(e.Name, c.Name) || semantic.ClosingName(c.Name)) {
				return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("quarry cannot tell which %s are %s there: %s may end them, and the question does not say how; ask for those whose %s is empty, or leave %q out",
					display(e.Name), word, display(c.Name), display(c.Name), word)}
			}
		}
	}
	return nil
}
