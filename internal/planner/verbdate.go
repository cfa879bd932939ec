package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// verbDate reads the date of another table named as what the subject's
// rows did ("how many customers ordered last month": orders.ordered_at)
// as rows that have at least one row of that table, in the period on
// that date: EXISTS over the one relationship, as "customers with an
// order last month" is. Only for a count or a list of the subject's
// rows, with one period and no condition on a count ("more than 20
// orders" keeps its own reading), nothing negated, and a table whose rows belong
// to the subject's (owns: orders.customer_id, not a role such as
// tickets.assignee_id, where "employees who opened a ticket" would read
// the assignee as the one who opened it); otherwise the term is refused
// as before (a date of rows that are not one per subject row).
func (b *builder) verbDate(t *term) bool {
	st := b.st
	s := t.cands[0]
	if len(t.cands) != 1 || s.kind != sColumn || !s.temporal || t.neg || b.subject == "" ||
		!(b.rows || b.countsSubject() || len(b.q.Metrics) == 0) || len(st.having) > 0 || len(st.dates) > 1 || len(st.grains) > 0 || st.compare || st.trend || st.share ||
		!b.p.linked(b.subject, s.entity) || b.p.m.IsRestricted(s.entity, s.column) {
		return false
	}
	for _, u := range st.terms {
		if u != t && u.role == "time" {
			return false
		}
		// A value or column of the same table ("customers who ordered
		// with FREESHIP last month") must hold on the same row as the
		// period, which this reading does not say: refused, as before
		// (found from outside: the two were read apart).
		if u != t && slices.ContainsFunc(u.cands, func(c sense) bool {
			return c.kind != sEntity && c.kind != sMetric && strings.EqualFold(c.entity, s.entity)
		}) && !sameRowValue(u, s.entity) {
			return false
		}
	}
	// "how many new customers ordered last month": whose period, the
	// signup's or the order's? Not read.
	if strings.Contains(" "+st.text+" ", " new ") {
		return false
	}
	if len(st.dates) > 1 || !b.p.owns(b.subject, s.entity) {
		return false
	}
	if startVerb(t.it.text) && b.p.m.StartColumn(b.subject) != "" && !b.namedEntities()[lower(s.entity)] {
		// "how many teachers start next month": their own start (a hire
		// date), not a start of their sections (found from outside: 16
		// teachers with a section starting then, for the 1 hired then,
		// at 0.85). Not read here, unless the question names the rows
		// that start ("employees with time off starting next week").
		return false
	}
	field := s.entity + "." + s.column
	var where []semantic.Filter
	if len(st.dates) == 1 {
		r := st.dates[0]
		if r.From == "" && r.To == "" {
			return false
		}
		if r.From != "" {
			where = append(where, semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{r.From}})
		}
		if r.To != "" {
			where = append(where, semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{r.To}})
		}
	} else if !b.onlyNamesItself(t, s.entity) {
		// "how many customers placed an order", "customers who have
		// ordered": with no period, the rows that have one at all
		// (found from outside: refused). Not beside a condition on the
		// same table, which this reading would not say.
		return false
	} else {
		// The rows that have the date: every order has its ordered_at,
		// but "plants with a decommissioned machine" are those with a
		// machine whose decommissioned_on is set (found from outside:
		// every plant with a machine, at 1.00).
		where = append(where, semantic.Filter{Field: field, Op: semantic.OpNotNull})
	}
	if done, ok := b.p.completedState(s.entity); ok && buyVerb(t.it.text) {
		// "customers who bought Toys in Q1": bought is a purchase
		// completed, as the knowledge's buyers are, not an order
		// cancelled (found from outside: cancelled and refunded orders
		// counted as bought).
		where = append(where, done)
		b.und("%q read as %s rows whose %s is %v", t.it.text, s.entity, done.Field, done.Values[0])
	}
	if len(st.dates) == 1 {
		b.usePeriod()
	}
	st.related = append(st.related, relatedRows{entity: s.entity, where: where, text: strings.TrimSpace(t.it.text), verb: true})
	t.role = "context"
	return true
}

// sameRowValue reports whether u is a value of one column of entity and
// nothing else, not negated and not compared: "snowboard" of "guests who
// rented a snowboard this year", which existsFilters puts on the same
// rentals row as the period (found from outside: refused, where the two
// had once been read apart).
func sameRowValue(u *term, entity string) bool {
	if u.neg || u.hasNum || len(u.cands) == 0 {
		return false
	}
	field := u.cands[0].field
	return !slices.ContainsFunc(u.cands, func(c sense) bool {
		return c.kind != sValue || !strings.EqualFold(c.entity, entity) || c.field != field
	})
}

// startVerb reports whether w is a bare verb of beginning, which says
// when a row itself starts.
func startVerb(w string) bool {
	switch w {
	case "start", "starts", "started", "starting", "begin", "begins", "began", "beginning":
		return true
	}
	return false
}

// onlyNamesItself reports whether the terms of the question other than
// t and the subject's name entity's rows at most as the table itself
// ("placed an order"): no value, column or count of them.
func (b *builder) onlyNamesItself(t *term, entity string) bool {
	for _, u := range b.st.terms {
		if u == t || u.hasNum || u.neg {
			if u != t && slices.ContainsFunc(u.cands, func(c sense) bool { return strings.EqualFold(c.entity, entity) }) {
				return false
			}
			continue
		}
		if sameRowValue(u, entity) {
			continue // "guests who rented a snowboard": on the same row
		}
		for _, c := range u.cands {
			if strings.EqualFold(c.entity, entity) && c.kind != sEntity {
				return false
			}
		}
	}
	return true
}

// owns reports whether child's rows point at parent's by exactly one
// foreign key, named after the parent table itself (orders.customer_id
// for customers): the rows are the parent's own, so the parent did what
// the child's date says. A key named for a role (assignee_id, opened_by)
// says the parent plays a part, not which.
func (p *Planner) owns(parent, child string) bool {
	var col string
	n := 0
	for _, rel := range p.m.Relationships {
		if strings.EqualFold(rel.From, child) && strings.EqualFold(rel.To, parent) && rel.Cardinality != semantic.OneToMany && rel.Cardinality != semantic.ManyToMany {
			col, n = rel.FromColumn, n+1
		}
	}
	if n != 1 {
		return false
	}
	e := p.entity(parent)
	if e == nil {
		return false
	}
	flat := func(s string) string { return strings.NewReplacer("_", "", " ", "", "-", "").Replace(lower(s)) }
	key := flat(strings.TrimSuffix(strings.TrimSuffix(lower(col), "_id"), "id"))
	for _, name := range []string{e.Name, e.Table} {
		if n := flat(name); n != "" && (key == n || key == singular(n)) {
			return true
		}
		// "invoice_id" of service_invoice_lines, to service_invoices:
		// the parent's last word, where the child is named after the
		// parent (found from outside: the lines of void service
		// invoices added up, with no period to join them by).
		if ws := words(name); len(ws) > 1 && key == singular(ws[len(ws)-1]) && strings.HasPrefix(flat(child), singular(flat(name))) {
			return true
		}
		// "case_id" of case_events, to support_cases: the parent's last
		// word, where the child is named after that word (found from
		// outside: the events of test accounts' cases counted, 304 for
		// 273, at 1.00).
		if ws, cw := words(name), words(child); len(ws) > 1 && len(cw) > 1 && key == singular(ws[len(ws)-1]) && cw[0] == key {
			return true
		}
	}
	return false
}

// verbOfCounted reports whether t is the verb of the rows a count
// condition right after it counts: "customers who placed more than 5
// orders", "customers who opened more than 3 tickets" — the date column
// of the orders ("placed") says only that they are the customer's
// orders, which the count already says. The date plays no part; a
// period, if any, still applies to the counted rows as it does without
// the verb.
func (b *builder) verbOfCounted(t *term) bool {
	if len(t.cands) == 0 || t.neg || len(t.aggs) > 0 || len(b.st.grains) > 0 {
		return false
	}
	for _, u := range b.st.terms {
		if u.byMode {
			return false // "… by country": whose count, per what, is not read
		}
	}
	e := t.cands[0].entity
	for _, s := range t.cands {
		if s.kind != sColumn || !s.temporal || !strings.EqualFold(s.entity, e) {
			return false
		}
	}
	for i, u := range b.st.terms {
		if u != t {
			continue
		}
		if i+1 >= len(b.st.terms) {
			return false
		}
		n := b.st.terms[i+1]
		return n.hasNum && n.cands[0].kind == sEntity && strings.EqualFold(n.cands[0].name, e)
	}
	return false
}

// rowAge filters the subject's rows by how long ago they began: "open
// tickets older than 30 days" are those opened before the as-of day less
// 30 days; "newer than a week", on or after it. The date is the
// subject's start date (time role start), else its time column; the
// reading names it and the day. A person's age is from their birth date
// (time role birth), where there is one.
func (b *builder) rowAge() *Plan {
	st := b.st
	n := int(st.ageNum)
	if float64(n) != st.ageNum || n <= 0 {
		return b.fail(fmt.Sprintf("quarry reads an age of whole %ss only", st.ageUnit))
	}
	// A person's age is from their birth date; a row's from its start.
	field := ""
	if e := b.p.entity(b.subject); e != nil && !st.rowsNewer {
		for _, c := range e.Columns {
			if c.TimeRole == semantic.TimeRoleBirth && !b.p.m.IsRestricted(e.Name, c.Name) {
				field = e.Name + "." + c.Name
			}
		}
	}
	if field == "" && b.p.ofPersons(b.subject) && !st.rowsNewer {
		// "customers older than 40": their age, which no column holds;
		// not how long ago they signed up.
		return b.fail(fmt.Sprintf("%s have no birth date or age in the knowledge, so quarry cannot tell how old they are; ask by the date they joined (\"signed up before …\")", display(b.subject)))
	}
	if field == "" {
		field = b.p.m.StartColumn(b.subject)
	}
	if field == "" {
		if e := b.p.entity(b.subject); e != nil && e.TimeColumn != "" && !b.p.m.IsRestricted(e.Name, e.TimeColumn) {
			field = e.Name + "." + e.TimeColumn
		}
	}
	if field == "" {
		return b.fail(fmt.Sprintf("%s has no date to tell how old its rows are", display(b.subject)))
	}
	day := semantic.Grain(st.ageUnit).Add(st.asOf, -n)
	if day.Equal(st.asOf) {
		return b.fail(fmt.Sprintf("quarry could not tell how old %q means", st.ageUnit))
	}
	op, word := semantic.OpLt, "before"
	if st.ageOp == "<" {
		// "newer than 30 days": the last 30 days, as "the last 30 days"
		// reads them (found from outside: the day N before counted too).
		op, word = semantic.OpGe, "on or after"
		day = day.AddDate(0, 0, 1)
	}
	cut := day.Format("2006-01-02")
	b.q.Filters = append(b.q.Filters, semantic.Filter{Field: field, Op: op, Values: []any{cut}})
	b.und("filter %s %s %s (%d %s(s) before %s)", field, word, cut, n, st.ageUnit, st.asOf.Format("2006-01-02"))
	return nil
}

// buyVerb reports whether w says a purchase was made.
func buyVerb(w string) bool {
	switch strings.TrimSpace(lower(w)) {
	case "bought", "buy", "buys", "purchased", "purchase", "purchases",
		// "members who haven't paid this year": a payment that went
		// through (found from outside: a failed or refunded one counted
		// as paid, 309 for 311).
		"paid", "pay", "pays":
		return true
	}
	return false
}

// completedState is the condition that an entity's row is a purchase
// completed: its status column (named status or state) holds the value
// completed, complete, paid or fulfilled (or, of a payment, succeeded,
// settled, captured …), the one such value; false
// where it has none or several.
func (p *Planner) completedState(entity string) (semantic.Filter, bool) {
	e := p.entity(entity)
	if e == nil {
		return semantic.Filter{}, false
	}
	var hit semantic.Filter
	n := 0
	for _, c := range e.Columns {
		status := false
		for _, w := range nameWords(c.Name) {
			status = status || w == "status" || w == "state"
		}
		if !status || p.m.IsRestricted(e.Name, c.Name) {
			continue
		}
		for _, v := range c.Values {
			switch semantic.Fold(v) {
			case "completed", "complete", "paid", "fulfilled", "succeeded", "successful", "success", "settled", "captured", "cleared":
				if n == 0 || !semantic.SameSpelling(fmt.Sprint(hit.Values[0]), v) {
					n++
				}
				hit = semantic.Filter{Field: e.Name + "." + c.Name, Op: semantic.OpEq, Values: []any{v}}
			}
		}
	}
	return hit, n == 1
}
