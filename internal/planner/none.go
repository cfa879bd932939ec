package planner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/semantic"
)

// Existence: "customers who never ordered", "products with no order
// items", "employees without tickets", "customers who did not place an
// order". The walk reads a negation of having ("never", "no", "without",
// "did not") followed by a table — named, or through a verb whose stem
// names it ("ordered" → orders) — into state.none; the plan then keeps
// only the subject's rows that have no row of that table
// (semantic.OpNone), which must refer to the subject directly.

// noneEntity is the table an item names after a negation of having: an
// entity sense of a term, or a past or present participle whose stem
// names one ("ordered", "ordering"). It reports false when there is none.
func (p *Planner) noneEntity(it *item) (string, bool) {
	if it.kind == itTerm {
		// Of a table and its copies (shipments, emea_shipments,
		// shipments_archive), the table (found from outside: "customers
		// with no shipments" not understood).
		// Of the tables it names, those it names best: "tickets" is
		// tickets, not ticket_attempts (found from outside: "requesters
		// with no tickets" not understood).
		if es := p.unqualified(strongest(only(it.senses, sEntity))); len(es) == 1 && len(only(it.senses, sValue)) == 0 {
			return es[0].name, true
		}
		if e := p.madeOn(it.senses); e != "" && !creationVerbs[it.text] {
			return e, true // "guests who never booked": bookings.booked_at
		}
		if slices.ContainsFunc(it.senses, func(s sense) bool { return s.kind == sColumn && s.temporal }) {
			// "rentals not returned yet": returned_at not set, not
			// rentals with no return location, a table the stem also
			// names (found from outside: 977 for 129, at 0.85).
			return "", false
		}
	}
	if it.kind != itTerm && it.kind != itUnknown && it.kind != itStop || strings.Contains(it.text, " ") {
		return "", false
	}
	w := it.text
	stems := []string{strings.TrimSuffix(w, "ed"), strings.TrimSuffix(w, "d"), strings.TrimSuffix(w, "ing"), strings.TrimSuffix(w, "ing") + "e"}
	if s := strings.TrimSuffix(w, "ed"); len(s) > 3 && s != w && s[len(s)-1] == s[len(s)-2] {
		stems = append(stems, s[:len(s)-1]) // "shipped" → ship
	}
	for _, stem := range stems {
		if stem == w || len(stem) < 3 {
			continue
		}
		// "booked" → bookings, "shipped" → shipments.
		for _, form := range []string{stem, stem + "s", stem + "ing", stem + "ings", stem + "ment", stem + "ments"} {
			// Of a table and its copies (invoices, emea_invoices,
			// invoices_archive), the table.
			if es := p.unqualified(only(p.lex.senses(form), sEntity)); len(es) == 1 {
				return es[0].name, true
			}
		}
	}
	return "", false
}

// madeOn is the table whose rows are made on the date all senses name
// (its time column, or its start date): "booked" for bookings.booked_at;
// not a date of something else that happens to the rows ("closed" for
// support_tickets.closed_at), which says more than that a row exists.
func (p *Planner) madeOn(ss []sense) string {
	e := ""
	for _, s := range ss {
		if s.kind != sColumn || !s.temporal || e != "" && !strings.EqualFold(e, s.entity) {
			return ""
		}
		ent := p.entity(s.entity)
		if ent == nil {
			return ""
		}
		c := ent.Column(s.column)
		if !strings.EqualFold(ent.TimeColumn, s.column) && (c == nil || c.TimeRole != semantic.TimeRoleStart) {
			return ""
		}
		e = ent.Name
	}
	return e
}

// creationVerbs say that a row was made, and nothing more: "never placed
// an order" is "no orders". Other verbs ("never closed a ticket") say
// something of the row, and are not read past.
var creationVerbs = map[string]bool{"placed": true, "place": true, "made": true, "make": true, "opened": true, "open": true,
	"created": true, "create": true, "submitted": true, "submit": true, "filed": true, "file": true, "raised": true,
	"raise": true, "bought": true, "buy": true, "purchased": true, "purchase": true, "had": true, "have": true,
	"logged": true, "log": true, "got": true, "get": true}

// makingBefore reports whether mean[i] is the past of a verb of making
// a row said right before a table ("never booked a lesson", "never
// reserved a room"): no row of that table at all, whatever became of
// it, as "never placed an order" reads (found from outside: "never
// booked" not understood, where "booked" is also a status).
func (p *Planner) makingBefore(mean []*item, i int) bool {
	if i+1 >= len(mean) || !semantic.MakingWord(mean[i].text) {
		return false
	}
	_, ok := p.noneEntity(mean[i+1])
	return ok
}

// objectless reports whether an item after a verb of making says it has
// no object of its own: "bought anything", "ordered yet", "bought this
// year".
func objectless(it *item) bool {
	if it.kind == itDate {
		return true // "bought this year"
	}
	switch it.text {
	case "anything", "something", "any", "yet", "ever", "at all":
		return true
	}
	return false
}

// lastN matches a period of the last N days, weeks or months before today;
// lastNSaid, one said in a question.
var (
	lastN     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(last|past|previous) \d+ `) })
	lastNSaid = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(last|past|previous|trailing) \d+ (days?|weeks?|months?|quarters?|years?)\b`)
	})
)

// asksWho reports whether a question starts by asking who: "who is",
// "who's", "whom".
func asksWho(question string) bool {
	ts := tokenize(question)
	return len(ts) > 0 && (ts[0].s == "who" || ts[0].s == "whom" || ts[0].s == "whos" || ts[0].s == "who's" || ts[0].s == "who’s")
}

// boughtNone is, for each table the question says is missing by a verb
// of buying ("customers who did not purchase last month"), the condition
// that its row is a purchase completed, as "customers who bought
// something" reads it (found from outside: the two did not add up, since
// cancelled and refunded orders counted as purchases when missing).
//
// A table whose every row is money paid (payments, donations) is read so
// whatever the verb: "donors who have never made a donation" have no
// donation that went through, a failed attempt none (found from outside:
// 26 donors whose only gifts failed counted as having given, at 1.00).
func (b *builder) boughtNone(pl *Plan) map[string][]semantic.Filter {
	// A word of a table's name is no verb: "customers with no work
	// orders" (found from outside: read as none completed, 1 customer for
	// 0 at 1.00).
	named := map[string]bool{}
	for _, ent := range b.st.none {
		for _, w := range nameWords(ent) {
			named[w], named[singular(w)] = true, true
		}
	}
	for _, t := range b.st.terms {
		if slices.ContainsFunc(t.cands, func(s sense) bool { return s.kind == sEntity }) {
			for _, w := range strings.Fields(lower(t.it.text)) {
				named[w] = true
			}
		}
	}
	verb := ""
	for _, t := range tokenize(b.st.raw) {
		if (buyVerb(t.s) || doneVerb(t.s)) && !named[lower(t.s)] {
			verb = t.s
			break
		}
	}
	out := map[string][]semantic.Filter{}
	for _, ent := range b.st.none {
		if verb == "" && !semantic.PaymentRows(ent) {
			continue
		}
		if done, ok := b.p.completedState(ent); ok {
			out[lower(ent)] = []semantic.Filter{done}
			said := verb
			if said == "" {
				said = display(ent)
			}
			pl.Understood = append(pl.Understood, fmt.Sprintf("%s read as %s rows whose %s is %v", said, ent, done.Field, done.Values[0]))
			if verb != "" {
				b.st.usedWords = append(b.st.usedWords, verb)
			}
		}
	}
	return out
}

// doneVerb reports whether w says a thing took place as it was meant to:
// "volunteers who never worked a shift" have none completed, a no-show
// or a cancelled one none worked (found from outside: every volunteer
// with any shift counted as having worked one); "guests who took a
// clinic" (tookPlace) took one that was held.
func doneVerb(w string) bool {
	switch w {
	case "worked", "work", "attended", "attend", "completed", "complete", "finished", "finish", "took", "take", "taken":
		return true
	}
	return false
}

// prevWord is the last word of the item before mean[i], or "".
func prevWord(mean []*item, i int) string {
	if i == 0 {
		return ""
	}
	ws := strings.Fields(mean[i-1].text)
	if len(ws) == 0 {
		return ""
	}
	return ws[len(ws)-1]
}

// withNone adds the existence filters the question asked for to a metric
// or rows plan: the subject's rows with no row of each table named.
func (b *builder) withNone(pl *Plan) *Plan {
	if len(b.st.none) == 0 || pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	subject := ""
	if q := pl.Query; q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		subject = b.p.metricEntity(q.Metrics[0], b.adhoc)
	}
	bought := b.boughtNone(pl)
	if q := pl.Query; (q.TimeRange != nil || len(q.Compare) > 0) && !b.p.missingParent(subject, b.st.none, q) {
		// "customers who have not ordered in the last 90 days": the
		// period is the missing rows', on their own date; applied to
		// the customers it would answer another question.
		if f, ok := b.missingInPeriod(subject, q); ok {
			if (lastN().MatchString(pl.Period) || lastNSaid().MatchString(b.st.raw)) && len(f.Where) == 2 && f.Where[0].Op == semantic.OpGe {
				// "customers who haven't bought in the last 6 months":
				// the six whole months before this one, and this one's
				// days too: one who bought yesterday has bought in the
				// last 6 months (found from outside: listed among those
				// who had not).
				f.Where = f.Where[:1]
				pl.Period = fmt.Sprintf("since %v", f.Where[0].Values[0])
				if head, _, ok := strings.Cut(pl.Title, ", "); ok {
					pl.Title = head + ", " + pl.Period
				}
			}
			q.TimeRange = nil
			f.Where = append(f.Where, bought[lower(f.Field)]...)
			q.Filters = append(q.Filters, f)
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s with no %s row where %s", subject, f.Field, whereText(f.Where)))
			if head, _, ok := strings.Cut(pl.Title, ", "); ok {
				pl.Title = head // the period is said once, after
			}
			pl.Title += " with no " + display(f.Field)
			if before, ok := b.hadBefore(f); ok {
				// "customers who haven't ordered since March": they
				// did order, before March; "since" says so (found from
				// outside: 423 counted, those who never ordered among
				// them).
				q.Filters = append(q.Filters, before)
				pl.Understood = append(pl.Understood, fmt.Sprintf("and only %s with a %s row where %s (“since” says they had one before)", subject, before.Field, whereText(before.Where)))
				pl.Title = strings.TrimSuffix(pl.Title, " with no "+display(f.Field)) + " with earlier " + display(f.Field) + " but no " + display(f.Field)
			}
			return pl
		}
		if !b.periodOwn(subject, q) {
			return b.fail("quarry cannot yet restrict the rows that must be missing to a period; ask without the period (“customers who never opened a ticket”)")
		}
		// "customers who signed up in 2025 and never ordered": the
		// period is the customers' own, and no order at all is missing.
	}
	for _, ent := range b.st.none {
		if strings.EqualFold(ent, subject) && !slices.ContainsFunc(b.p.m.Relationships, func(r semantic.Relationship) bool {
			return strings.EqualFold(r.From, subject) && strings.EqualFold(r.To, subject)
		}) {
			// "tickets with no first response": a date of the tickets
			// read as their making, so none of the tickets themselves
			// (found from outside: read as tickets with no refunds, the
			// table linking tickets to tickets, at 0.85). A table that
			// links to itself (a manager) may lack its own rows.
			return b.fail(fmt.Sprintf("quarry cannot tell what the %s have none of: the word after the negation names the %s themselves; name the column (“%s whose … is empty”)", display(subject), display(subject), display(subject)))
		}
		via := ent
		if !b.p.joinedDirectly(subject, ent) {
			// "products never ordered": no order_items row, the table that
			// links each product to its orders.
			via = b.p.bridge(subject, ent)
			if path, chained := b.p.m.Related(subject, ent); chained && strings.EqualFold(path.Link, ent) {
				// "customers with no repair orders": the repair orders'
				// own chain up to them (vehicles), not the invoices that
				// refer to both, which a repair order may lack (found
				// from outside: 20 for 16, at 1.00).
				via = ent
			} else if via == "" && chained {
				// "accounts that never made a payment": payments of their
				// invoices, through the one chain of references.
				via = ent
			}
			if via == "" {
				return b.fail(fmt.Sprintf("quarry can tell which %s have no %s only when %s refer to %s directly", display(subject), display(ent), display(ent), display(subject)))
			}
		}
		if f := b.unnamedRoute(pl.Query.Filters, subject, via); f != nil {
			// "members who have never borrowed a book": the book may be
			// of the loans they lack, which quarry cannot yet write, and
			// is not of the holds it would reach the titles through
			// (found from outside: members with a hold on a book and no
			// loan, 5 for 30, at 0.85).
			return b.fail(fmt.Sprintf("quarry cannot tell whether %s is said of the %s the %s have none of, which it cannot yet ask through %s, or of other rows of theirs; ask for the %s with no %s, or with %s", whereText(f.Where), display(via), display(subject), display(via), display(subject), display(via), whereText(f.Where)))
		}
		if f := someRowsOf(pl.Query.Filters, via); f != nil {
			// "channels that do not have any cartoons directed by Ben
			// Jones": no such cartoon, not a cartoon by him and none at
			// all (found on Spider: answered no channel at all).
			f.Op = semantic.OpNone
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s with no %s row where %s", subject, via, whereText(f.Where)))
			pl.Title += " with no such " + display(ent)
			continue
		}
		pl.Query.Filters = append(pl.Query.Filters, semantic.Filter{Field: via, Op: semantic.OpNone, Where: bought[lower(via)]})
		if via != ent {
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s with no %s (which link them to %s)", subject, via, ent))
		} else {
			pl.Understood = append(pl.Understood, fmt.Sprintf("only %s with no %s", subject, ent))
		}
		pl.Title += " with no " + display(ent)
	}
	return pl
}

// unnamedRoute is the one filter of fs that keeps the subject's rows
// having a related row of a table the question does not name as rows
// (titles, by a value of theirs), which the subject does not refer to
// itself, so that quarry would reach it through some other table (holds),
// where the rows of via, which the question says are missing, reach it
// too (loans, through copies): nil otherwise.
func (b *builder) unnamedRoute(fs []semantic.Filter, subject, via string) *semantic.Filter {
	named := b.namedEntities()
	var out *semantic.Filter
	for i := range fs {
		f := &fs[i]
		if f.Op != semantic.OpSome || len(f.Where) == 0 || f.Count || strings.EqualFold(f.Field, via) || named[lower(f.Field)] || b.p.joinedDirectly(subject, f.Field) {
			continue
		}
		for _, w := range f.Where {
			fd, ok := b.p.m.ColumnField(w.Field)
			if !ok {
				return nil
			}
			// The missing rows reach that table: loans up to titles,
			// through copies, or by a reference of their own.
			if _, chained := b.p.m.Related(fd.Entity.Name, via); !chained && !b.p.pointsAt(via, fd.Entity.Name) {
				return nil
			}
		}
		if out != nil {
			return nil
		}
		out = f
	}
	return out
}

// someRowsOf is the one filter of fs that keeps the rows having a row of
// entity ent that meets conditions, or nil.
func someRowsOf(fs []semantic.Filter, ent string) *semantic.Filter {
	var out *semantic.Filter
	for i := range fs {
		if f := &fs[i]; f.Op == semantic.OpSome && len(f.Where) > 0 && strings.EqualFold(f.Field, ent) {
			if out != nil {
				return nil
			}
			out = f
		}
	}
	return out
}

// bridge is the one entity whose rows each point at a row of subject and
// at a row of target (order_items between products and orders), or "".
func (p *Planner) bridge(subject, target string) string {
	found := ""
	for _, e := range p.m.Entities {
		if p.pointsAt(e.Name, subject) && p.pointsAt(e.Name, target) {
			if found != "" {
				return "" // two ways: quarry does not guess
			}
			found = e.Name
		}
	}
	return found
}

// pointsAt reports whether rows of child refer to a row of parent through
// one many-to-one relationship.
func (p *Planner) pointsAt(child, parent string) bool {
	for _, r := range p.m.Relationships {
		if strings.EqualFold(r.From, child) && strings.EqualFold(r.To, parent) && r.Cardinality == semantic.ManyToOne ||
			strings.EqualFold(r.To, child) && strings.EqualFold(r.From, parent) && r.Cardinality == semantic.OneToMany {
			return !strings.EqualFold(child, parent)
		}
	}
	return false
}

// joinedDirectly reports whether exactly one relationship joins entities a
// and b (with two, which one is meant is a guess).
func (p *Planner) joinedDirectly(a, b string) bool {
	n := 0
	for _, r := range p.m.Relationships {
		if strings.EqualFold(r.From, a) && strings.EqualFold(r.To, b) || strings.EqualFold(r.From, b) && strings.EqualFold(r.To, a) {
			n++
		}
	}
	return n == 1 && !strings.EqualFold(a, b)
}

// missingInPeriod is the filter that keeps the subject's rows with no row
// of the one table the question says is missing within the query's
// period, on that table's own date ("customers who have not ordered in
// the last 90 days": no order dated in them); false where the period
// may be the subject's own (its date named, or a period on another
// date), the missing table is not linked directly, or has no date.
func (b *builder) missingInPeriod(subject string, q *semantic.Query) (semantic.Filter, bool) {
	if len(b.st.none) != 1 || len(q.Compare) > 0 || q.TimeRange == nil {
		return semantic.Filter{}, false
	}
	ent, subj := b.p.entity(b.st.none[0]), b.p.entity(subject)
	if ent == nil || subj == nil || ent.TimeColumn == "" || !b.p.joinedDirectly(subject, ent.Name) {
		return semantic.Filter{}, false
	}
	own := ent.Name + "." + ent.TimeColumn
	if tr := q.TimeRange; tr.Field != "" && !strings.EqualFold(tr.Field, own) && !strings.EqualFold(tr.Field, subj.Name+"."+subj.TimeColumn) {
		return semantic.Filter{}, false
	}
	if subj.TimeColumn != "" && namesDate(b.st.raw, subj.TimeColumn) {
		return semantic.Filter{}, false // "customers who signed up in 2025 with no orders"
	}
	f := semantic.Filter{Field: ent.Name, Op: semantic.OpNone}
	if q.TimeRange.From != "" {
		f.Where = append(f.Where, semantic.Filter{Field: own, Op: semantic.OpGe, Values: []any{q.TimeRange.From}})
	}
	if q.TimeRange.To != "" {
		f.Where = append(f.Where, semantic.Filter{Field: own, Op: semantic.OpLt, Values: []any{q.TimeRange.To}})
	}
	return f, len(f.Where) > 0
}

// hadBefore is the filter that keeps the rows with a row of the missing
// table dated before the period, where the question says the rows are
// missing "since" a time: "not since March" says there was one before.
func (b *builder) hadBefore(missing semantic.Filter) (semantic.Filter, bool) {
	if len(missing.Where) == 0 || missing.Where[0].Op != semantic.OpGe {
		return semantic.Filter{}, false
	}
	for _, t := range tokenize(b.st.raw) {
		if t.s == "since" {
			w := missing.Where[0]
			return semantic.Filter{Field: missing.Field, Op: semantic.OpSome, Where: []semantic.Filter{{Field: w.Field, Op: semantic.OpLt, Values: w.Values}}}, true
		}
	}
	return semantic.Filter{}, false
}

// periodOwn reports whether the query's one period is the subject's own,
// on its date the question names ("customers who signed up in 2025 …").
func (b *builder) periodOwn(subject string, q *semantic.Query) bool {
	subj := b.p.entity(subject)
	if subj == nil || subj.TimeColumn == "" || len(q.Compare) > 0 || q.TimeRange == nil || !namesDate(b.st.raw, subj.TimeColumn) {
		return false
	}
	f, own := q.TimeRange.Field, subj.Name+"."+subj.TimeColumn
	if d := b.p.m.Dimension(f); d != nil {
		if e, c, ok := simpleRef(d.Expr); ok {
			f = e + "." + c // the demo's signup_date dimension
		}
	}
	return f == "" || strings.EqualFold(f, own)
}
