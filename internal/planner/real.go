package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
)

// realRows leaves out of a planned query the rows its tables mark as no
// real data — a test or deleted row by a yes/no column (is_test,
// is_deleted: the flag is not yes), a deleted one by a date (deleted_at
// is empty), or a void or test one by its status (status not 'void') — in every table the query measures, lists, groups or filters
// by, unless the query reads that column already ("deleted customers",
// "test orders by month"). Found from outside, three testers over
// two rounds: "how many customers do we have" counted the deleted ones
// and "units by city" the units of deleted properties, at confidence
// 1.00. The reading says what was left out and how to ask for it.
func (p *Planner) realRows(pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	q := pl.Query
	m := pl.over(p.m)
	var ents []string
	add := func(name string) {
		if e := m.Entity(name); e != nil && !slices.Contains(ents, e.Name) {
			ents = append(ents, e.Name)
		}
	}
	field := func(ref string) {
		if f, ok := m.ColumnField(ref); ok {
			add(f.Entity.Name)
		}
	}
	var mts []*semantic.Metric
	var metric func(name string, depth int)
	metric = func(name string, depth int) {
		mt := m.Metric(name)
		if mt == nil || depth > 3 {
			return
		}
		mts = append(mts, mt)
		add(mt.Entity)
		// The tables its own conditions read (revenue of the orders not
		// cancelled): its rows are theirs, joined already (found from
		// outside: deleted orders' lines in "total revenue", not in
		// "revenue last quarter").
		for _, expr := range mt.Filters {
			for _, ref := range semantic.ColumnRefs(expr) {
				field(ref)
			}
		}
		for _, r := range semantic.DerivedRefs(mt.Derived) {
			metric(r, depth+1)
		}
	}
	for _, name := range q.Metrics {
		metric(name, 0)
	}
	if q.Rows != nil {
		add(q.Rows.Entity)
	}
	for _, d := range q.Dimensions {
		field(d.Name)
	}
	// The table whose date puts the rows in the period (an order's, for
	// its lines): joined for it, its test rows are left out too (found
	// from outside: test orders' discounts counted by their lines).
	if len(q.Compare) > 0 {
		// Compared periods are on each measure's own date, as a period
		// is (found from outside: "revenue this year vs last year" took
		// in deleted orders, which "revenue this year" left out).
		for _, mt := range mts {
			if t := m.MetricTime(mt); t != "" {
				field(t)
			}
		}
	}
	if q.TimeRange != nil {
		if tf := q.TimeRange.Field; tf != "" {
			field(tf)
		} else {
			for _, mt := range mts {
				if t := m.MetricTime(mt); t != "" {
					field(t)
				}
			}
		}
	}
	for _, f := range q.Filters {
		if f.Op != semantic.OpNone && f.Op != semantic.OpSome && !f.Count {
			field(f.Field)
		}
	}
	var out *semantic.Query
	clone := func() {
		if out == nil {
			c := *q
			c.Filters = slices.Clone(q.Filters)
			out = &c
		}
	}
	// The table the measured rows belong to ("incidents": each one a
	// student's, students.is_test): its test rows' own rows are test
	// data too (found from outside: a test student's incidents counted,
	// 58 for 54, at 1.00). Joined for it, one step, only a parent the
	// rows are owned by (a key named after it); a deleted or void owner
	// only where the rows have no date of their own (below).
	//
	// Up the chain of owners too, a few steps: a test customer's
	// policies' claims, a test account's orders' tickets are test data
	// as well (found from outside: 6 claims of test customers counted in
	// every claims answer, at 1.00, and test orders' tickets). Rows with
	// no date of their own (an order's lines, a property's units) are
	// parts of their owner, and go with it deleted or void too (parts).
	measured := func(name string) bool {
		if q.Rows != nil && strings.EqualFold(q.Rows.Entity, name) {
			return true
		}
		return slices.ContainsFunc(mts, func(mt *semantic.Metric) bool { return strings.EqualFold(mt.Entity, name) })
	}
	var owners []string
	child := map[string]string{} // an owner found up the chain: the rows it owns
	routes := ownerRoutes{}      // the ways up to each owner (diamond.go)
	ownersOf := func(names []string) (found []string) {
		for _, name := range names {
			for _, r := range m.Relationships {
				if !strings.EqualFold(r.From, name) || r.Cardinality != semantic.ManyToOne && r.Cardinality != semantic.OneToOne || strings.EqualFold(r.To, name) {
					continue
				}
				parent := m.Entity(r.To)
				owned, refersTest := p.ownerBy(m, parent, name)
				if !owned && (!refersTest || routes.first[lower(name)].testOnly) {
					continue
				}
				if slices.Contains(ents, parent.Name) {
					// Read by the query already (the attempts by agent):
					// an owner's way up to it is another way.
					if !slices.Contains(ents, name) {
						routes.again(parent.Name, name, !owned)
					}
					continue
				}
				if routes.add(parent.Name, name, slices.Contains(ents, name), measured(name), !owned) {
					owners = append(owners, parent.Name)
					child[parent.Name] = name
					if owned {
						found = append(found, parent.Name) // climbed from; one by a role key is not
					}
				}
			}
		}
		return found
	}
	for next, step := ownersOf(ents), 1; len(next) > 0 && step < 3; step++ {
		next = ownersOf(next)
	}
	// The measured or listed rows: where they are dated events (an
	// enrollment, a payment), the deletion of a table joined to group or
	// filter them (a student deleted since) does not undo them (found
	// from outside: enrollments by country lost those of deleted
	// students, and the leader changed, at 1.00); a unit of a deleted
	// property is gone with it.
	events := false
	for _, mt := range mts {
		if e := m.Entity(mt.Entity); e != nil && e.TimeColumn != "" {
			events = true
		}
	}
	if q.Rows != nil {
		if e := m.Entity(q.Rows.Entity); e != nil {
			events = e.TimeColumn != ""
		}
	}
	// parts reports whether the rows owner owns go with it deleted or
	// void (goesWith): an order's lines, a deleted shipment's delivery
	// attempts, where a deleted student's incidents still happened.
	parts := func(owner string) bool { return p.goes(m, routes.first[lower(owner)].chain) }
	ended := asksEnded(m, q, mts, measured)
	// ofJoined reports whether an owner was reached up from a table
	// joined to group or filter dated events, not from the rows
	// measured: a closed location's rooms' bookings still took place, by
	// room as by location (found from outside: "bookings by room" left
	// out a deleted location's bookings that "bookings by location"
	// kept).
	ofJoined := func(owner string) bool {
		c := child[owner]
		for slices.Contains(owners, c) {
			c = child[c]
		}
		return events && c != "" && !measured(c)
	}
	leaveOut := func(name string, owner bool) {
		e := m.Entity(name)
		joinedTo := events && !owner && !measured(name)
		if NamedRows(m, q, e) {
			// "how many invoices did Acme Inc 100 get": a row asked for
			// by its name is counted whatever it is marked (found from
			// outside: 0 for a test account named, at 1.00).
			return
		}
		for _, c := range e.Columns {
			f, ok := unrealFilter(m, e, c)
			if !ok || owner && (!parts(name) || routes.first[lower(name)].testOnly) && !testWord(semantic.UnrealFlag(c)) || readsColumn(m, q, mts, f.Field, c.Name) && (owner || !onlyNegated(q, f)) || joinedTo && deletion(c) || owner && (ended || ofJoined(name)) && deletion(c) {
				continue
			}
			word, read := unrealWord(e, c), fmt.Sprintf("leave out %s rows (%s)", unrealWord(e, c), f.Field)
			if start := periodStart(q); start != "" && semantic.DeletionDate(c) && !owner {
				// "passengers who booked in 2025": one deleted since the
				// period of the bookings began was there in it, and the
				// bookings are theirs (found from outside: 577 for 598).
				f = semantic.Filter{Field: f.Field, Op: semantic.OpGe, Values: []any{start}, OrNull: true}
				word, read = fmt.Sprintf("deleted before %s,", start), fmt.Sprintf("leave out the rows deleted before %s, when the period began (%s)", start, f.Field)
			}
			if owner {
				word = "the rows of " + word
				read = fmt.Sprintf("leave out the rows of %s %s (%s)", unrealWord(e, c), display(e.Name), f.Field)
			}
			clone()
			if through := routes.through(name); owner && through != "" {
				// An owner reached up more than one chain (an attempt's
				// agent, and its ticket's): each chain is read on its
				// own (otherRoutes), this one too.
				f.Through = through
			}
			out.Filters = append(out.Filters, f)
			if owner && f.Through == "" {
				// Joined up the chain it was found by (work orders'
				// assets' sites' customers), not by a shorter way
				// through rows of another kind (the invoices that refer
				// to both: found from outside, the test customers' work
				// orders with no invoice kept).
				for c := child[name]; slices.Contains(owners, c); c = child[c] {
					if !slices.ContainsFunc(out.Via, func(v string) bool { return strings.EqualFold(v, c) }) {
						out.Via = append(out.Via, c)
					}
				}
			}
			pl.Notes = append(pl.Notes, fmt.Sprintf("%s %s are left out (%s); ask for them by name to count them", word, display(e.Name), f.Field))
			pl.Understood = append(pl.Understood, read)
		}
	}
	for _, name := range owners {
		if !routes.first[lower(name)].testOnly {
			leaveOut(name, true)
		}
	}
	for _, name := range owners {
		if !routes.first[lower(name)].testOnly {
			continue
		}
		// Joined by a key not named after it: where the query does not
		// compile with it (a way the compiler cannot tell), left as it
		// was.
		clone()
		filters, notes, understood, via := len(out.Filters), len(pl.Notes), len(pl.Understood), len(out.Via)
		leaveOut(name, true)
		if _, err := semantic.Compile(m, *out, "sqlite"); err != nil {
			out.Filters, pl.Notes, pl.Understood, out.Via = out.Filters[:filters], pl.Notes[:notes], pl.Understood[:understood], out.Via[:via]
		}
	}
	if routes.diamond() {
		clone()
		p.otherRoutes(pl, m, q, mts, out, routes)
	}
	for _, name := range ents {
		leaveOut(name, false)
	}
	// The rows of another table a condition counts or asks for ("customers
	// with more than 15 shipments", "with no orders"): its test and
	// deleted rows are no rows of it either (found from outside: test
	// shipments counted, 18 customers for 16).
	//
	// Their owners' too, up the chain, as for the rows measured (above):
	// the attempts of test customers' shipments, the grades of deleted
	// enrollments (found from outside: "drivers with more than 100
	// delivery attempts" 12 for 3, "students with no F grades" 178 for
	// 181, at 1.00). Never through the rows the condition is on, which
	// the subquery refers to from outside.
	subject := subjectOf(m, q, mts)
	for i, f := range q.Filters {
		if !(f.Count || f.Op == semantic.OpSome || f.Op == semantic.OpNone) {
			continue
		}
		e := m.Entity(f.Field)
		if e == nil {
			continue
		}
		kept, said := slices.Clone(out0(out, q).Filters[i].Where), len(pl.Understood)
		those := []ownedBy{{entity: e}}
		if path, ok := m.Related(subject, e.Name); ok && subject != "" {
			// The rows the condition goes through to them ("students
			// with enrollments in both Math and Physics": their
			// enrollments, deleted ones too; found from outside, 67
			// for 66 at 1.00) are its rows as much.
			if link := m.Entity(path.Link); link != nil && link != e {
				those = append(those, ownedBy{entity: link, through: true})
			}
			// And those the chain joins on its way ("customers with
			// orders of both Pallet Jack and Scanner": the orders of
			// the order lines; found from outside: void and deleted
			// orders' products counted, 25 customers for 22 at 1.00).
			if len(path.ToOuter) > 0 {
				for _, r := range append(slices.Clone(path.ToRelated), path.ToOuter[:len(path.ToOuter)-1]...) {
					if t := m.Entity(r.To); t != nil && t != e && !slices.ContainsFunc(those, func(o ownedBy) bool { return o.entity == t }) {
						those = append(those, ownedBy{entity: t, through: true})
					}
				}
			}
		}
		up := p.routesUp(m, e.Name, subject)
		for _, o := range append(those, ownersUp(m, up)...) {
			for _, c := range o.entity.Columns {
				w, ok := unrealFilter(m, o.entity, c)
				if !ok || slices.ContainsFunc(out0(out, q).Filters[i].Where, func(x semantic.Filter) bool { return strings.EqualFold(x.Field, w.Field) }) {
					continue
				}
				if o.child != nil && (!p.goesWith(o.entity, o.child) || o.testOnly) && !testWord(semantic.UnrealFlag(c)) {
					// A deleted or void owner whose rows still happened
					// (leaveOut's parts).
					continue
				}
				if o.through && (f.Op == semantic.OpSome || f.Op == semantic.OpNone) && semantic.DeletionDate(c) && p.namedRows(o.entity) {
					// "owners who never had an appointment": a pet
					// deleted since still had its appointments, as a
					// deleted student's incidents still happened
					// (goesWith; found from outside: 137 owners for 125,
					// those whose pets were deleted later among them).
					continue
				}
				if (f.Op == semantic.OpSome || f.Op == semantic.OpNone) && semantic.DeletionDate(c) && subject != "" && p.upOf(lower(subject))[lower(o.entity.Name)] {
					// "bookings without a room": the row each refers to,
					// deleted since, was still theirs (found from outside: 98
					// bookings of rooms deleted later listed as having none).
					continue
				}
				clone()
				where := append(slices.Clone(out.Filters[i].Where), w)
				out.Filters[i].Where = where
				if o.child == nil {
					pl.Understood = append(pl.Understood, fmt.Sprintf("leave out %s rows of the %s counted or asked for (%s)", unrealWord(o.entity, c), display(o.entity.Name), w.Field))
				} else {
					pl.Understood = append(pl.Understood, fmt.Sprintf("leave out the %s of %s %s (%s)", display(e.Name), unrealWord(o.entity, c), display(o.entity.Name), w.Field))
				}
			}
			if o.child == nil && !o.through {
				kept, said = slices.Clone(out0(out, q).Filters[i].Where), len(pl.Understood)
			}
		}
		if others, read := p.otherRoutesUp(m, f, e, subject, up); len(others) > 0 {
			// An owner reached up two chains from the rows counted (an
			// exam result's exam's teacher, and its class's): each
			// other way too (diamond.go).
			clone()
			out.Filters[i].Where = append(slices.Clone(out.Filters[i].Where), others...)
			pl.Understood = append(pl.Understood, read...)
		}
		if out != nil && len(out.Filters[i].Where) > len(kept) {
			if _, err := semantic.Compile(m, *out, "sqlite"); err != nil {
				// The owners are not joined in one way from the rows
				// counted: the condition keeps the rows' own filters.
				out.Filters[i].Where, pl.Understood = kept, pl.Understood[:said]
			}
		}
	}
	if out != nil {
		pl.Query = out
	}
	return pl
}

// goesWith reports whether the rows of child an owner owns are deleted or
// void with it: where they have no date of their own (an order's lines,
// an enrollment's grades), or where the owner is a dated record known
// only by its key, with no name (an invoice, a shipment, an order), whose
// payments and delivery attempts were made for a record that is no more
// (found from outside, two testers: the payments of deleted invoices and
// the attempts of deleted shipments counted, at 1.00). A named owner (a
// customer, a student, a room) deleted since leaves what happened to it
// (found from outside: a deleted student's incidents still counted).
func (p *Planner) goesWith(owner, child *semantic.Entity) bool {
	if owner == nil || child == nil {
		return false
	}
	if child.TimeColumn == "" {
		// Rows dated by another table they belong to are its events: the
		// results of an exam, by the exam's date, still happened to a
		// student deleted since (found from outside: 106 for 111 results
		// in 2025). They go with that table, as an order's lines go with
		// the order.
		if d := p.m.PartsDate(child.Name, p.entity); d != "" && !strings.EqualFold(d[:strings.LastIndex(d, ".")], owner.Name) {
			return owner.TimeColumn != "" && !p.namedRows(owner)
		}
		return true
	}
	// A thing in use (a vehicle with a retirement date) is no record
	// the dated rows are parts of: the rentals of a vehicle deleted since
	// took place, and were paid (found from outside: every payment,
	// invoice and pickup of deleted vehicles' rentals left out, at 1.00).
	return owner.TimeColumn != "" && !p.namedRows(owner) && !semantic.InUse(owner)
}

// namedRows reports whether a table's rows are known by a name, as
// people, companies and places are: a label, a noun for persons, or a
// column of names.
func (p *Planner) namedRows(e *semantic.Entity) bool {
	if p.label(e) != "" || p.ofPersons(e.Name) {
		return true
	}
	for _, c := range e.Columns {
		switch lower(c.Name) {
		case "name", "full_name", "first_name", "last_name", "display_name", "company_name":
			return true
		}
	}
	return false
}

// out0 is the query realRows is making: its copy once made, else the
// planned one.
func out0(out, q *semantic.Query) *semantic.Query {
	if out != nil {
		return out
	}
	return q
}

// ownedBy is a table up the chain of owners of some rows (ownersUp),
// and the rows of the chain it owns.
type ownedBy struct {
	entity   *semantic.Entity
	child    *semantic.Entity // nil for the rows themselves
	through  bool             // the rows a related condition goes through
	testOnly bool             // by a key not named after it: its test rows alone (ownerBy)
}

// periodStart is the first day of the period of the related rows a
// query's rows must have or have none of ("customers who ordered in
// 2025": 2025-01-01), the latest of them; "" where there is none, or it
// has no start. A period of the rows' own (a deleted order of last
// quarter, a customer who signed up in 2025) is not read: a deleted row
// of its own is no row of it.
func periodStart(q *semantic.Query) string {
	start := ""
	for _, f := range q.Filters {
		if f.Op != semantic.OpSome && f.Op != semantic.OpNone {
			continue
		}
		for _, w := range f.Where {
			if w.Op != semantic.OpGe || len(w.Values) != 1 {
				continue
			}
			if d, ok := w.Values[0].(string); ok && len(d) >= 10 && d[4] == '-' && d > start {
				start = d
			}
		}
	}
	return start
}

// deletion reports whether c marks rows deleted, by a date (deleted_at) or
// a yes/no column (is_deleted, is_removed): a table joined only to group
// or filter dated events keeps such rows, whose events still happened
// (found from outside: "how many tickets by company" lost the tickets of
// requesters marked is_deleted, the groups adding to 202 for 221).
func deletion(c semantic.Column) bool {
	switch semantic.UnrealFlag(c) {
	case "deleted", "removed":
		return true
	}
	return semantic.DeletionDate(c)
}

// testWord reports whether a yes/no column's word marks rows made to
// try things out (test, demo, sample, dummy, fake, sandbox), whose own
// rows are made so too; not deleted, void or duplicate rows.
func testWord(w string) bool {
	switch w {
	case "test", "testing", "demo", "sample", "dummy", "fake", "sandbox":
		return true
	}
	return false
}

// onlyNegated reports whether q reads the column of the real-rows
// condition w only by filters that keep values out ("unpaid bills":
// status not 'paid'; "not draft": one of w's own), and does not group
// by it: the bills not paid are of the real ones, void left out (found
// from outside: 2,514 unpaid bills, 463 of them void; "unpaid invoices
// that are not draft" took the void ones back in).
func onlyNegated(q *semantic.Query, w semantic.Filter) bool {
	if w.Op != semantic.OpNotIn {
		return false
	}
	for _, d := range q.Dimensions {
		if strings.EqualFold(d.Name, w.Field) {
			return false
		}
	}
	n, covered := 0, make([]bool, len(w.Values))
	for _, f := range q.Filters {
		if !strings.EqualFold(f.Field, w.Field) {
			continue
		}
		if f.Op != semantic.OpNe && f.Op != semantic.OpNotIn {
			return false
		}
		n++
		for i, v := range w.Values {
			covered[i] = covered[i] || asksUnreal(f, semantic.Filter{Field: w.Field, Op: semantic.OpNotIn, Values: []any{v}})
		}
	}
	// Every state w keeps out, kept out by the question already ("not
	// void"): nothing to add.
	return n > 0 && slices.Contains(covered, false)
}

// unrealFilter is the condition that keeps the real rows of e by column
// c (the flag not yes, or no deletion date), where c marks rows as no
// real data.
func unrealFilter(m *semantic.Model, e *semantic.Entity, c semantic.Column) (semantic.Filter, bool) {
	if m.IsRestricted(e.Name, c.Name) {
		return semantic.Filter{}, false
	}
	ref := e.Name + "." + c.Name
	if semantic.UnrealFlag(c) != "" {
		if yes, _ := flagValue(c); yes != nil {
			return semantic.Filter{Field: ref, Op: semantic.OpNe, Values: []any{yes}}, true
		}
		return semantic.Filter{}, false
	}
	if semantic.DeletionDate(c) {
		return semantic.Filter{Field: ref, Op: semantic.OpNull}, true
	}
	if states := unrealStates(e, c); len(states) > 0 {
		vs := make([]any, len(states))
		for i, v := range states {
			vs[i] = v
		}
		return semantic.Filter{Field: ref, Op: semantic.OpNotIn, Values: vs}, true
	}
	return semantic.Filter{}, false
}

// unrealStates are the states of e's status column c that mark rows as
// no real data (semantic.UnrealStates), and for a table of money (an
// invoice, an order, a payment) 'draft', 'failed', 'declined' and
// 'bounced' as well: a draft invoice bills nothing yet (found from
// outside: "total invoice line amount last year" took in 54,980 of
// drafts' lines, at 1.00), where a draft course is a course.
func unrealStates(e *semantic.Entity, c semantic.Column) []string {
	states := semantic.UnrealStates(c)
	if c.Type != quarry.TypeText || !semantic.StatusName(c.Name) || !recordsMoney(e.Name) {
		return states
	}
	for _, v := range c.Values {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "draft", "failed", "declined", "bounced":
			// A payment that failed, a card declined, a cheque bounced
			// moved no money (found from outside, on a bike share:
			// failed charges in every total and count of payments).
			if !slices.Contains(states, v) {
				states = append(states, v)
			}
		}
	}
	if len(states) == len(c.Values) {
		return nil
	}
	return states
}

// unrealWord is what column c of e says of the rows it marks: "test",
// "deleted".
func unrealWord(e *semantic.Entity, c semantic.Column) string {
	if w := semantic.UnrealFlag(c); w != "" {
		return w
	}
	if states := unrealStates(e, c); len(states) > 0 {
		return strings.ToLower(strings.Join(states, " and "))
	}
	return "deleted"
}

// NamedRows reports whether q keeps to rows of e it names: a value of
// its label or of its key.
func NamedRows(m *semantic.Model, q *semantic.Query, e *semantic.Entity) bool {
	for _, f := range q.Filters {
		if f.Op != semantic.OpEq && f.Op != semantic.OpIn {
			continue
		}
		fld, ok := m.ColumnField(f.Field)
		if !ok || !strings.EqualFold(fld.Entity.Name, e.Name) {
			continue
		}
		if strings.EqualFold(fld.Column.Name, e.Label) || strings.EqualFold(fld.Column.Name, e.PrimaryKey) {
			return true
		}
	}
	return false
}

// readsColumn reports whether q, or a metric it measures, reads column
// col (ref: entity.col) already: a filter or a grouping on it, its
// period, or a measure's formula or filters.
func readsColumn(m *semantic.Model, q *semantic.Query, mts []*semantic.Metric, ref, col string) bool {
	same := func(field string) bool {
		if strings.EqualFold(field, ref) {
			return true
		}
		f, ok := m.ColumnField(field)
		return ok && strings.EqualFold(f.Entity.Name+"."+f.Column.Name, ref)
	}
	for _, f := range q.Filters {
		if same(f.Field) || slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return same(w.Field) }) {
			return true
		}
	}
	for _, d := range q.Dimensions {
		if same(d.Name) {
			return true
		}
	}
	if q.TimeRange != nil && same(q.TimeRange.Field) {
		return true
	}
	lc := strings.ToLower(col)
	for _, mt := range mts {
		if strings.Contains(strings.ToLower(mt.Expr), lc) || strings.Contains(strings.ToLower(mt.Time), lc) {
			return true
		}
		for _, f := range mt.Filters {
			if strings.Contains(strings.ToLower(f), lc) {
				return true
			}
		}
	}
	return false
}

// subjectOf is the table whose rows q lists or its first measure
// counts, "" where there is none.
func subjectOf(m *semantic.Model, q *semantic.Query, mts []*semantic.Metric) string {
	if q.Rows != nil {
		return q.Rows.Entity
	}
	if len(mts) > 0 && mts[0].Derived == "" {
		return mts[0].Entity
	}
	return ""
}
