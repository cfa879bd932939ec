package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// existsValue reads a value of a table with many rows for each row of the
// subject ("students who have a dog", "customers who ordered on mobile")
// as the subject's rows that have such a row: the term's role becomes
// "exists", and existsFilters writes the filter. It applies when the
// value names one column, its table is joined to the subject directly or
// through the one table that links them, and the subject's rows are
// listed or counted, not measured by a metric of another table.
func (b *builder) existsValue(t *term) bool {
	if b.subject == "" || len(b.q.Metrics) > 0 && !b.countsSubject() || t.ofCounted {
		return false
	}
	for _, h := range b.st.having {
		if s := h.cands[0]; s.kind == sMetric && b.countedEntity(s.name) == "" {
			// "customers who spent more than $500 on Electronics": the
			// amount of those lines, which a total of whole orders that
			// hold one is not (found from outside: 165 for 95).
			return false
		}
	}
	if countedValue(b.st.text, t.it.text) && !b.adjectiveOf(t, "") {
		// "how many managers per restaurant": the managers are what is
		// counted, not the restaurants that have one (found from
		// outside: 5 restaurants, at 1.00).
		return false
	}
	if saidAfter(b.st.text, t.it.text, "to", "into", "towards", "toward") {
		// "flights to Denver", where Denver is only a city of members
		// who booked: rows that go to it are not rows related to it
		// (found from outside: read as flights with a Denver member).
		return false
	}
	cands := t.cands
	if named := b.namedEntities(); len(cands) > 1 {
		// "both refunded and cancelled orders": the orders' status, not
		// a subscription's.
		var keep []sense
		for _, s := range cands {
			if named[lower(s.entity)] {
				keep = append(keep, s)
			}
		}
		cands = keep
	}
	fields := map[string]bool{}
	for _, s := range cands {
		fields[s.field] = true
	}
	if len(fields) != 1 || !b.p.linked(b.subject, cands[0].entity) {
		return false
	}
	t.cands = cands[:1]
	t.role = "exists"
	return true
}

// adjectiveOf reports whether the term right after t names entity, or
// any table for "": t is said of its rows ("closed venues", "how many
// active accounts").
func (b *builder) adjectiveOf(t *term, entity string) bool {
	for _, u := range b.st.terms {
		if u.pos == t.pos+1 {
			return slices.ContainsFunc(u.cands, func(c sense) bool {
				return c.kind == sEntity && (entity == "" || strings.EqualFold(c.name, entity))
			})
		}
	}
	return false
}

// countedValue reports whether value is what the question counts ("how
// many managers", "number of managers"), in text, the question's words.
func countedValue(text, value string) bool {
	text = " " + text + " "
	for _, c := range []string{"how many", "number of", "count of"} {
		if strings.Contains(text, " "+c+" "+value+" ") {
			return true
		}
	}
	return false
}

// existsFlag reads a yes/no column of a table joined to the subject
// through many rows, said beside a value of that same table ("countries
// with English as an official language": countrylanguage.IsOfficial), as
// a condition on the related row the value picks; existsFilters adds it
// to that row's conditions. It reports whether it did.
func (b *builder) existsFlag(t *term) bool {
	s := t.cands[0]
	if s.flag == nil || t.hasNum || b.subject == "" || !b.p.linked(b.subject, s.entity) {
		return false
	}
	for _, u := range b.st.terms {
		if u != t && slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sValue && strings.EqualFold(c.entity, s.entity) }) {
			t.role = "existsflag"
			return true
		}
	}
	return false
}

// columnOfValue reports whether term t names only the column of a value
// another term of the question names ("English … language": Language),
// which says nothing more of the rows.
func (b *builder) columnOfValue(t *term) bool {
	for _, s := range t.cands {
		if s.kind != sColumn || s.flag != nil {
			return false
		}
		found := false
		for _, u := range b.st.terms {
			found = found || u != t && slices.ContainsFunc(u.cands, func(c sense) bool { return c.kind == sValue && strings.EqualFold(c.field, s.field) })
		}
		if !found {
			return false
		}
	}
	return len(t.cands) > 0
}

// countsSubject reports whether the query's only metric counts the
// subject's rows.
func (b *builder) countsSubject() bool {
	return len(b.q.Metrics) == 1 && b.countedEntity(b.q.Metrics[0]) != "" && strings.EqualFold(b.countedEntity(b.q.Metrics[0]), b.subject)
}

// linked reports whether entity r is joined to e by one relationship, or
// in the one way semantic.Model.Related finds (through the one entity
// whose rows refer to both, or a chain of references to both) — what the
// compiler can say with EXISTS (semantic relatedFrom).
func (p *Planner) linked(e, r string) bool {
	if strings.EqualFold(e, r) {
		return false
	}
	n := 0
	for _, rel := range p.m.Relationships {
		if strings.EqualFold(rel.From, e) && strings.EqualFold(rel.To, r) || strings.EqualFold(rel.From, r) && strings.EqualFold(rel.To, e) {
			n++
		}
	}
	if n > 0 {
		return n == 1
	}
	_, ok := p.m.Related(e, r)
	return ok
}

// existsFilters writes the filters of the "exists" terms: the values of
// one column joined by "and"/"or" are one filter (a row with any of
// them), unless the question says "both" (a row with each); a negated
// value is a filter on having none ("students who do not have a cat").
func (b *builder) existsFilters() *Plan {
	for _, s := range b.st.nulls {
		if b.subject == "" || b.rank(s.entity, nil) > 2 {
			return b.fail(fmt.Sprintf("%s is a column of %s, which is not a single related row of each %s row; quarry does not guess how to combine them", s.column, display(s.entity), display(b.subject)))
		}
		if b.p.additiveColumn([]sense{s}) {
			// "orders with no tip": an amount that adds up holds 0 (or less) for
			// none as often as nothing (found from outside: tip_cents is
			// never empty, and "no tip" counted 0 orders of 15,630).
			b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpLe, Values: []any{int64(0)}, OrNull: true})
			b.und("filter %s is 0 or empty", s.field)
			continue
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.field, Op: semantic.OpNull})
		b.und("filter %s is empty", s.field)
	}
	verbRow := map[string]int{} // a table's row read from a verb of its date: its filter
	for _, rr := range b.st.related {
		if b.subject == "" || !b.p.linked(b.subject, rr.entity) {
			return b.fail(fmt.Sprintf("quarry could not tell how %q relates to %s; ask for the %s that have one by a column of theirs", rr.text, display(b.subject), display(b.subject)))
		}
		op, verb := semantic.OpSome, "with"
		if rr.neg {
			op, verb = semantic.OpNone, "without"
		}
		if rr.verb && !rr.neg {
			verbRow[lower(rr.entity)] = len(b.q.Filters)
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: rr.entity, Op: op, Where: rr.where})
		b.und("%s %s %s (a %s row where %s)", display(b.subject), verb, rr.text, rr.entity, whereText(rr.where))
	}
	var last *semantic.Filter
	var lastTerm *term
	for _, t := range b.st.terms {
		if t.role != "exists" {
			continue
		}
		prev := lastTerm
		lastTerm = t
		s := t.cands[0]
		if d := b.ownEventDate(t, s); d != "" {
			// "members who have expired": their own expires_on, or a
			// hold of theirs whose status is expired? (found from
			// outside: the hold's, 69 for 399, at 1.00.)
			return b.fail(fmt.Sprintf("quarry cannot tell whether %q says %s of the %s themselves (%s) or that they have a %s row whose %s is %s; ask “%s whose %s has passed” or “%s with %s %s”",
				t.it.text, t.it.text, display(b.subject), d, display(s.entity), s.column, s.value, display(b.subject), display(d[strings.Index(d, ".")+1:]), display(b.subject), t.it.text, display(s.entity)))
		}
		if pl := b.ownLinkNamed(t, s); pl != nil {
			return pl
		}
		if i, ok := verbRow[lower(s.entity)]; ok && !t.neg && !t.conj && !t.hasNum {
			// "guests who rented a snowboard this year": the rental
			// that was a snowboard is the one rented this year.
			f := &b.q.Filters[i]
			f.Where = append(slices.Clone(f.Where), semantic.Filter{Field: s.field, Op: semantic.OpEq, Values: []any{s.value}})
			b.und("and %s = %s on the same %s row", s.field, s.value, s.entity)
			last, lastTerm = f, t
			continue
		}
		if t.hasNum {
			return b.fail(fmt.Sprintf("quarry could not tell what “%s %s” compares; put it right after the column, such as “price over %s”", t.op, numText(t.num), numText(t.num)))
		}
		op := semantic.OpSome
		if t.neg {
			op = semantic.OpNone
		}
		if last != nil && prev != nil && t.pos == prev.pos+1 && !t.conj && !t.afterStop && op == semantic.OpSome && last.Op == semantic.OpSome &&
			strings.EqualFold(last.Field, s.entity) && !slices.ContainsFunc(last.Where, func(w semantic.Filter) bool { return strings.EqualFold(w.Field, s.field) }) {
			// "customers who have refunded mobile orders": values said
			// together of one noun hold on one row (an order both
			// refunded and mobile); "a refunded order and a mobile
			// order" are two (found from outside, both ways).
			last.Where = append(last.Where, semantic.Filter{Field: s.field, Op: semantic.OpEq, Values: []any{s.value}})
			b.und("and %s = %s on the same %s row", s.field, s.value, s.entity)
			continue
		}
		if last != nil && t.conj && !t.conjAnd && last.Where[len(last.Where)-1].Field != s.field {
			// "customers with refunded orders or mobile orders": rows
			// with either, which quarry does not write yet (found from
			// outside: read as both on one row).
			return b.fail(fmt.Sprintf("quarry cannot yet keep %s that have either of two conditions on different columns (%v or %s); ask for each", display(b.subject), last.Where[len(last.Where)-1].Values[0], s.value))
		}
		if last != nil && t.conj && t.conjAnd && !b.st.both && last.Op == semantic.OpSome && op == semantic.OpSome && len(last.Where) == 1 && last.Where[0].Field == s.field {
			// "customers who ordered Beauty and Sports": an order of
			// either, or orders of both? (found from outside: read as
			// either, where both was meant).
			return b.fail(fmt.Sprintf("“%v and %s” may mean %s with either or %s with both; ask “… %v or %s” or “… both %v and %s”", last.Where[0].Values[len(last.Where[0].Values)-1], s.value, display(b.subject), display(b.subject), last.Where[0].Values[len(last.Where[0].Values)-1], s.value, last.Where[0].Values[len(last.Where[0].Values)-1], s.value))
		}
		if last != nil && t.conj && !t.conjAnd && last.Op == op && last.Where[len(last.Where)-1].Field == s.field || last != nil && t.conj && !b.st.both && last.Op == op && len(last.Where) == 1 && last.Where[0].Field == s.field {
			w := &last.Where[len(last.Where)-1]
			w.Op = semantic.OpIn
			w.Values = append(w.Values, s.value)
			b.und("or %s = %s", s.field, s.value)
			continue
		}
		if op == semantic.OpSome {
			if pl := b.heldRelated(t.it.text, s.entity, s.field); pl != nil {
				return pl
			}
		}
		b.q.Filters = append(b.q.Filters, semantic.Filter{Field: s.entity, Op: op,
			Where: []semantic.Filter{{Field: s.field, Op: semantic.OpEq, Values: []any{s.value}}}})
		last = &b.q.Filters[len(b.q.Filters)-1]
		verb := "with"
		if op == semantic.OpNone {
			verb = "without"
		}
		b.und("%s %s a %s row where %s = %s", display(b.subject), verb, s.entity, s.field, s.value)
	}
	for _, t := range b.st.terms {
		if t.role != "existsflag" {
			continue
		}
		s := t.cands[0]
		var on *semantic.Filter
		for i := range b.q.Filters {
			if f := &b.q.Filters[i]; f.Op == semantic.OpSome && strings.EqualFold(f.Field, s.entity) {
				if on != nil {
					return b.fail(fmt.Sprintf("quarry could not tell which %s row %q is said of", s.entity, t.it.text))
				}
				on = f
			}
		}
		if on == nil {
			return b.fail(fmt.Sprintf("%q belongs to %s, which is not a single related row of each %s row; quarry does not guess how to combine them", t.it.text, s.entity, display(b.subject)))
		}
		on.Where = append(on.Where, semantic.Filter{Field: s.field, Op: semantic.OpEq, Values: []any{s.flag}})
		b.und("and %s = %v on the same %s row", s.field, s.flag, s.entity)
		if t.neg {
			// "countries where English is not the official language":
			// no such row, whether English is spoken there or not.
			on.Op = semantic.OpNone
			b.und("none such: %s without it", display(b.subject))
		}
	}
	return nil
}
