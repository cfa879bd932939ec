package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckStatuses is the check that a total or an average of money does not
// silently take in rows whose status says the money never came: failed,
// refunded, cancelled, void or pending ones.
const CheckStatuses = "statuses_included"

// untakenWords are the statuses of a sale, an order or a payment that did
// not, or not yet, go through.
var untakenWords = []string{"failed", "fail", "refunded", "refund", "cancelled", "canceled", "void", "voided", "pending",
	"declined", "rejected", "reversed", "bounced", "chargeback", "unpaid", "returned", "abandoned",
	// Written off: a debt that will never be paid (found from outside:
	// uncollectible invoices counted as overdue, at 1.00).
	"uncollectible", "written off", "written_off", "writtenoff", "write off", "write_off", "bad debt"}

// excusedWords are the states of a charge let go: never to be paid, though
// a total of what was charged takes it in ("total fines" are those
// assessed, waived or not).
var excusedWords = []string{"waived", "forgiven", "excused", "exempted"}

// undoneWords are the statuses of rows whose amount was not, or not yet,
// taken in.
var undoneWords = append(slices.Clip(untakenWords), "expired",
	// A subscription's or a contract's that no longer pays, or does not
	// yet (found from outside: "total MRR" added up churned and trial
	// subscriptions at full confidence).
	"churned", "terminated", "lapsed", "inactive", "suspended", "trial", "trialing", "trialling")

// StatusCheck warns where a query adds up or averages an amount of a table
// with a status column (a text column named status or state) whose known
// values include some such state, and neither the query nor the measure
// keeps any status out: "the donation total in Q4" summed failed, pending
// and refunded gifts with no word (found from outside, at confidence 1.00).
// An average of what is not money (a weight) is left alone. Empty when
// it does not warn.
//
// A control query counts the measured rows, under the query's conditions,
// that are so marked (their own status, or that of the row they refer to:
// a treatment's visit), and where there are none, as where treatments are
// only made at visits that took place, or the query's other conditions
// leave none cancelled, it does not warn (found from outside: a warning
// on every total of treatments, though none was of a cancelled visit).
// Where the control cannot run, it warns.
func (a *Analyst) StatusCheck(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	if m == nil || q == nil {
		return verify.Check{}
	}
	if q.Rows != nil {
		return unhappened(m, q)
	}
	for _, mt := range amountsOf(m, q) {
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "AVG(") && !money(mt) {
			continue // an average weight or age is one of every row, cancelled or not
		}
		for _, e := range statusTables(m, m.Entity(mt.Entity)) {
			c, marked := statusMix(m, q, mt, e)
			if c.Name == "" {
				continue
			}
			present, ok := a.marked(ctx, m, q, mt, marked)
			if !ok {
				return c // the control could not run: the warning stands
			}
			if len(present) == 0 {
				continue
			}
			if len(present) < len(marked.Values) {
				// Only the states the rows hold ("total MRR currently":
				// none cancelled, some trialing).
				c.Detail = mixDetail(measureWords(mt), e.Name, strings.TrimPrefix(marked.Field, e.Name+"."), present)
			}
			return c
		}
	}
	if c := ownFlagUnread(m, q); c.Name != "" {
		return c
	}
	return unhappened(m, q)
}

// unhappened is noneStatuses's warning, else countedStatuses's, else
// someStatuses's, else endedHoldings's, else notYetStatuses's.
func unhappened(m *semantic.Model, q *semantic.Query) verify.Check {
	if c := noneStatuses(m, q); c.Name != "" {
		return c
	}
	if c := countedStatuses(m, q); c.Name != "" {
		return c
	}
	if c := someStatuses(m, q); c.Name != "" {
		return c
	}
	if c := endedHoldings(m, q); c.Name != "" {
		return c
	}
	return notYetStatuses(m, q)
}

// notYetStatuses warns where rows are kept for not being in a state that
// ends them well ("purchase orders not received yet": status <>
// 'received') and the states left hold some that never will (cancelled,
// failed, …) besides others: a cancelled order is not received either,
// and not waiting to be (found from outside, at confidence 1.00). Rows
// kept out of a state of that kind themselves ("orders not cancelled")
// are left alone.
func notYetStatuses(m *semantic.Model, q *semantic.Query) verify.Check {
	e := m.Entity(subjectOf(m, q))
	if e == nil {
		return verify.Check{}
	}
	for _, f := range q.Filters {
		if f.Op != semantic.OpNe && f.Op != semantic.OpNotIn {
			continue
		}
		fd, ok := m.ColumnField(f.Field)
		if !ok || !strings.EqualFold(fd.Entity.Name, e.Name) || !semantic.StatusName(fd.Column.Name) || len(fd.Column.Values) == 0 {
			continue
		}
		if slices.ContainsFunc(q.Filters, func(g semantic.Filter) bool {
			gd, ok := m.ColumnField(g.Field)
			return ok && (g.Op == semantic.OpEq || g.Op == semantic.OpIn) && gd.Column == fd.Column
		}) {
			continue // a state kept besides: "open orders not shipped"
		}
		var out []string
		for _, v := range f.Values {
			out = append(out, fmt.Sprint(v))
		}
		calledOff := slices.ContainsFunc(out, semantic.CalledOff)
		if slices.ContainsFunc(out, neverDone) && !calledOff {
			continue
		}
		// The values every condition on the column keeps out, not only
		// this one's: "unpaid invoices", draft and void left out as no
		// real invoices, take in neither (found from outside: a warning
		// that they were taken in).
		var kept []string
		for _, g := range q.Filters {
			if gd, ok := m.ColumnField(g.Field); ok && gd.Column == fd.Column && (g.Op == semantic.OpNe || g.Op == semantic.OpNotIn) {
				for _, v := range g.Values {
					kept = append(kept, fmt.Sprint(v))
				}
			}
		}
		left := slices.DeleteFunc(slices.Clone(fd.Column.Values), func(v string) bool {
			return slices.ContainsFunc(kept, func(o string) bool { return semantic.SameSpelling(o, v) })
		})
		never, other := splitValues(left, neverDone)
		if len(never) == 0 || len(other) == 0 {
			continue
		}
		if calledOff {
			// "deliveries last month", the skipped left out as called
			// off: the failed ones did not take place either (found on
			// the way: "… which may never be skipped").
			return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s whose %s is not %s take in those %s, which may not have taken place either; ask for %s %s alone to leave them out",
				e.Name, fieldWords(fd.Column.Name), quoteList(out), quoteList(never), quoteList(other), e.Name)}
		}
		return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s whose %s is not %s take in those %s, which may never be %s; ask for %s %s alone to leave them out",
			e.Name, fieldWords(fd.Column.Name), quoteList(out), quoteList(never), strings.Join(out, " or "), quoteList(other), e.Name)}
	}
	return verify.Check{}
}

// unhappenedWords are the statuses of rows whose event has not taken
// place, or never will: a match postponed, a meeting scheduled.
var unhappenedWords = []string{"scheduled", "postponed", "rescheduled", "cancelled", "canceled", "planned", "upcoming",
	"pending", "draft", "tentative", "abandoned", "void", "suspended", "called off", "called_off"}

// noneStatuses warns where a count picks rows that have none of another
// table's ("matches with no goals") among rows whose status says their
// event has not taken place: a postponed match has no goals because it
// was not played (found from outside, at confidence 1.00). The other
// statuses are named for the question to keep.
func noneStatuses(m *semantic.Model, q *semantic.Query) verify.Check {
	e := m.Entity(subjectOf(m, q))
	if e == nil {
		return verify.Check{}
	}
	what, unset := "with none", ""
	if !slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return f.Op == semantic.OpNone }) {
		// "rentals not returned yet": a date of the rows' own event not
		// set, which a cancelled rental lacks too (found from outside:
		// 977 rentals, 848 of them cancelled, at 1.00). "Orders without
		// a tip": a value a cancelled order lacks too (found from
		// outside: 303 of 1,180, at 1.00).
		for _, f := range q.Filters {
			if fd, ok := m.ColumnField(f.Field); ok && f.Op == semantic.OpNull && strings.EqualFold(fd.Entity.Name, e.Name) {
				what = "whose " + fieldWords(fd.Column.Name) + " is not set"
				if fd.Column.Temporal() {
					unset = fd.Column.Name
				}
				break
			}
		}
		if what == "with none" {
			return verify.Check{}
		}
	}
	for _, c := range e.Columns {
		if !semantic.StatusName(c.Name) || len(c.Values) == 0 || m.IsRestricted(e.Name, c.Name) {
			continue
		}
		values, chosen := statesLeft(q, e.Name+"."+c.Name, c.Values)
		if chosen {
			continue
		}
		if unset != "" {
			// Not done yet, or never to be: an invoice written off is
			// not paid either (found from outside: uncollectible
			// invoices counted as overdue, at 1.00). The state the unset
			// date names ("paid" of paid_at) is none of the others.
			done := semantic.NameWords(unset)[0]
			not, other := splitValues(values, neverDone)
			named := func(v string) bool { return semantic.Fold(v) == done }
			not, other = slices.DeleteFunc(not, named), slices.DeleteFunc(other, named)
			if len(not) == 0 || len(other) == 0 {
				continue
			}
			// The way to leave them out names them: the other states may
			// all have the date set ("shipments not shipped": delivered
			// and lost ones were shipped; found from outside).
			return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s %s take in those whose %s is %s, which may never be %s; ask for the %s whose %s is not %s to leave them out",
				e.Name, what, fieldWords(c.Name), quoteList(not), done, e.Name, fieldWords(c.Name), quoteList(not))}
		}
		not, other := splitValues(values, func(v string) bool { return slices.Contains(unhappenedWords, semantic.Fold(v)) })
		if len(not) == 0 || len(other) == 0 {
			continue
		}
		return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s %s take in those whose %s is %s, which may have none because it has not happened; ask for %s %s alone to leave them out",
			e.Name, what, fieldWords(c.Name), quoteList(not), quoteList(other), e.Name)}
	}
	if unset == "" {
		return verify.Check{}
	}
	// A row closed another way, by a date (a hold cancelled is not
	// fulfilled, and never will be: cancelled holds counted as not
	// fulfilled) or a yes/no column (a fine waived is not paid: waived
	// fines counted as unpaid, at 1.00; both found from outside), which
	// the query does not read.
	for _, c := range e.Columns {
		ref := e.Name + "." + c.Name
		if strings.EqualFold(c.Name, unset) || m.IsRestricted(e.Name, c.Name) || slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, ref) }) {
			continue
		}
		switch {
		case c.Temporal() && slices.ContainsFunc(semantic.NameWords(c.Name), neverDone):
			return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s %s take in those with a %s, which never will be %s; ask for %s not %s to leave them out",
				e.Name, what, fieldWords(c.Name), semantic.NameWords(unset)[0], e.Name, semantic.NameWords(c.Name)[0])}
		case semantic.YesNo(c) && neverDone(semantic.FlagAdjective(c.Name)):
			return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s %s take in those marked %s (%s), which never will be; ask for %s not %s to leave them out",
				e.Name, what, semantic.FlagAdjective(c.Name), ref, e.Name, semantic.FlagAdjective(c.Name))}
		}
	}
	return verify.Check{}
}

// statesLeft are the values of the status column field that q's filters
// leave (those a "not" filter keeps out removed), and chosen is true
// where a filter picks states of it ("open invoices").
func statesLeft(q *semantic.Query, field string, values []string) (left []string, chosen bool) {
	left = values
	for _, f := range q.Filters {
		if !strings.EqualFold(f.Field, field) {
			continue
		}
		if f.Op != semantic.OpNe && f.Op != semantic.OpNotIn {
			return nil, true
		}
		left = slices.DeleteFunc(slices.Clone(left), func(v string) bool {
			return slices.ContainsFunc(f.Values, func(o any) bool { return semantic.SameSpelling(fmt.Sprint(o), v) })
		})
	}
	return left, false
}

// someStatuses warns where rows are kept for having some row of another
// table ("customers who made a purchase", "customers with orders") and
// that table's status column holds states of what never came to pass
// (cancelled, refunded, failed …) besides others, with no condition on
// it: a customer whose one order was cancelled is counted as one who
// ordered (found from outside, at confidence 1.00). The other statuses
// are named for the question to keep.
func someStatuses(m *semantic.Model, q *semantic.Query) verify.Check {
	// "customers with more than 2 orders" counts orders of every status,
	// as the demo's golden answer does: a count condition is not read.
	rs, ok := relatedStates(m, q, semantic.OpSome, func(*semantic.Entity) bool { return true }, neverDone)
	if !ok {
		return verify.Check{}
	}
	return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s with %s take in those whose only %s have the %s %s; ask for %s with %s %s alone to leave them out",
		rs.subject, rs.e.Name, rs.e.Name, fieldWords(rs.column), quoteList(rs.states), rs.subject, quoteList(rs.others), rs.e.Name)}
}

// relatedStatus is a status column of rows that a query's subject must
// have, or lack, some of: the states it holds of one kind, and the others.
type relatedStatus struct {
	subject        string
	e              *semantic.Entity
	column         string
	states, others []string
}

// relatedStates finds, among q's conditions that its subject's rows have
// (op OpSome) or lack (OpNone) rows of a table that held admits, with no
// condition on that table's status column, the first such column whose
// known values hold states that match and others besides.
func relatedStates(m *semantic.Model, q *semantic.Query, op semantic.Op, held func(*semantic.Entity) bool, match func(string) bool) (relatedStatus, bool) {
	subject := subjectOf(m, q)
	if subject == "" {
		return relatedStatus{}, false
	}
	for _, f := range q.Filters {
		if f.Op != op || f.Count {
			continue
		}
		e := m.Entity(f.Field)
		if e == nil || e.Role != nil || !held(e) {
			continue
		}
		for _, c := range e.Columns {
			if !semantic.StatusName(c.Name) || len(c.Values) == 0 || m.IsRestricted(e.Name, c.Name) {
				continue
			}
			if slices.ContainsFunc(f.Where, func(w semantic.Filter) bool {
				fd, ok := m.ColumnField(w.Field)
				if !ok {
					fd, ok = m.ColumnField(e.Name + "." + w.Field)
				}
				return ok && strings.EqualFold(fd.Entity.Name, e.Name) && strings.EqualFold(fd.Column.Name, c.Name)
			}) {
				continue
			}
			yes, no := splitValues(c.Values, match)
			if len(yes) == 0 || len(no) == 0 {
				continue
			}
			return relatedStatus{subject: subject, e: e, column: c.Name, states: yes, others: no}, true
		}
	}
	return relatedStatus{}, false
}

// neverDone reports whether a status is of what did not go through
// (cancelled, refunded, failed …) or has not happened (scheduled …).
func neverDone(v string) bool {
	w := semantic.Fold(v)
	return slices.Contains(untakenWords, w) || slices.Contains(unhappenedWords, w) || slices.Contains(excusedWords, w)
}

// splitValues parts values into those that match and the others, in order.
func splitValues(values []string, match func(string) bool) (yes, no []string) {
	for _, v := range values {
		if match(v) {
			yes = append(yes, v)
		} else {
			no = append(no, v)
		}
	}
	return yes, no
}

// subjectOf is the table whose rows q counts or lists: its rows' table,
// or its one measure's; "" when neither.
func subjectOf(m *semantic.Model, q *semantic.Query) string {
	if q.Rows != nil {
		return q.Rows.Entity
	}
	if len(q.Metrics) == 1 {
		if mt := m.Metric(q.Metrics[0]); mt != nil && mt.Derived == "" {
			return mt.Entity
		}
	}
	return ""
}

// statusTables are the tables whose status says whether e's rows count:
// e, and the tables each of its rows refers to where e's rows have no
// date of their own, as an order's lines are parts of it (found from
// outside: check-ins and memberships warned of their members' status,
// which says nothing of a check-in or a membership).
func statusTables(m *semantic.Model, e *semantic.Entity) []*semantic.Entity {
	if e.TimeColumn != "" {
		return []*semantic.Entity{e}
	}
	return withParents(m, e)
}

// withParents is e and the tables each of its rows refers to (an order
// line's order, a payment's invoice).
func withParents(m *semantic.Model, e *semantic.Entity) []*semantic.Entity {
	out := []*semantic.Entity{e}
	for _, r := range m.Relationships {
		if strings.EqualFold(r.From, e.Name) && r.Cardinality != semantic.OneToMany && r.Cardinality != semantic.ManyToMany {
			if p := m.Entity(r.To); p != nil && p != e {
				out = append(out, p)
			}
		}
	}
	return out
}

// statusMix is StatusCheck for the status column of table e, which holds
// the measure's rows or the rows they refer to (found from outside: order
// lines of cancelled orders added up with no word).
func statusMix(m *semantic.Model, q *semantic.Query, mt *semantic.Metric, e *semantic.Entity) (verify.Check, semantic.Filter) {
	what := measureWords(mt)
	for _, c := range e.Columns {
		// A yes/no column whose word is such a state ("refunded",
		// is_return): the rows it marks (found from outside: refunded
		// donations added to every total, with no word).
		if adj := semantic.FlagAdjective(c.Name); adj != "" && semantic.YesNo(c) && !m.IsRestricted(e.Name, c.Name) &&
			(slices.Contains(undoneWords, adj) || adj == "return" || adj == "refund") && !keptOut(m, q, mt, e.Name+"."+c.Name, c.Name) {
			return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s takes in the rows of %s marked %s (%s.%s) too; ask for those not %s to leave them out",
				what, e.Name, adj, e.Name, c.Name, adj)}, semantic.Filter{} // how a yes is stored varies: no control
		}
	}
	for _, c := range e.Columns {
		// A status by name, or any column of a few known values of
		// which one says the money never came (payments.result =
		// 'failed': found from outside, summed with no word).
		if len(c.Values) == 0 || !semantic.StatusName(c.Name) && (len(c.Values) > 12 || c.Type.IsNumeric() || m.IsRestricted(e.Name, c.Name)) {
			continue
		}
		// States the query keeps out ("payments excluding refunded",
		// or the void rows every query leaves out) leave the others:
		// the failed ones are still taken in (found from outside, at
		// 1.00 with no word; refunded tuition in "paid in 2025").
		rest, out := withoutExclusions(q, e.Name+"."+c.Name)
		if keptOut(m, rest, mt, e.Name+"."+c.Name, c.Name) {
			continue
		}
		var undone []string
		for _, v := range c.Values {
			// A row still planned or scheduled (its date past, as those
			// ahead are cut) has not spent or earned its amount either
			// (found from outside: 48 jobs still 'planned' after their
			// day added 73,209 to "maintenance cost in 2026", the
			// warning naming the cancelled ones alone).
			took := slices.Contains(undoneWords, semantic.Fold(v)) || semantic.StillToCome(v)
			if eventCount(m, mt) {
				took = calledOffEvent(v) // a pending booking is still one made
			}
			if took && !slices.ContainsFunc(undone, func(u string) bool { return semantic.SameSpelling(u, v) }) &&
				!slices.ContainsFunc(out, func(o string) bool { return semantic.SameSpelling(o, v) }) {
				undone = append(undone, v)
			}
		}
		if len(undone) == 0 {
			continue
		}
		vals := make([]any, len(undone))
		for i, v := range undone {
			vals[i] = v
		}
		return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: mixDetail(what, e.Name, c.Name, undone)},
			semantic.Filter{Field: e.Name + "." + c.Name, Op: semantic.OpIn, Values: vals}
	}
	return verify.Check{}, semantic.Filter{}
}

// measureWords is how a warning names a measure: its description, else
// its name's words.
func measureWords(mt *semantic.Metric) string {
	if mt.Description != "" {
		return mt.Description
	}
	return fieldWords(mt.Name)
}

// mixDetail is statusMix's warning: the measure, described as what, takes
// in the rows of table whose column holds one of the states named.
func mixDetail(what, table, column string, states []string) string {
	return fmt.Sprintf("the %s takes in every row of %s whatever its %s, those %s too; ask for the other statuses alone to leave them out",
		what, table, fieldWords(column), quoteList(states))
}

// marked is which of the states of filter marked (a status IN (…)) the
// rows mt measures hold, under q's conditions and period, by a control
// query grouped by the status; ok is false where the control cannot run
// or marked is no such filter.
func (a *Analyst) marked(ctx context.Context, m *semantic.Model, q *semantic.Query, mt *semantic.Metric, marked semantic.Filter) (present []string, ok bool) {
	e := m.Entity(mt.Entity)
	if a.Conn == nil || e == nil || e.PrimaryKey == "" || marked.Field == "" {
		return nil, false
	}
	key := e.Name + "." + e.PrimaryKey
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: aheadName, Entity: e.Name, Expr: "COUNT(" + key + ")"})
	c := semantic.Query{Metrics: []string{aheadName}, Dimensions: []semantic.DimRef{{Name: marked.Field}}, TimeRange: q.TimeRange, Filters: append(slices.Clone(q.Filters), marked)}
	res, _, ok := a.control(ctx, &mm, c, len(marked.Values)+1)
	if !ok || res.Table.Truncated {
		return nil, false
	}
	for _, r := range res.Table.Rows {
		if len(r) != 2 {
			return nil, false
		}
		if n, ok := semantic.NumberOf(r[1]); ok && n > 0 && r[0] != nil {
			for _, v := range marked.Values {
				if semantic.SameSpelling(fmt.Sprint(v), fmt.Sprint(r[0])) && !slices.Contains(present, fmt.Sprint(v)) {
					present = append(present, fmt.Sprint(v))
				}
			}
		}
	}
	// In the knowledge's order, as the warning names them.
	slices.SortFunc(present, func(x, y string) int {
		return slices.IndexFunc(marked.Values, func(v any) bool { return fmt.Sprint(v) == x }) - slices.IndexFunc(marked.Values, func(v any) bool { return fmt.Sprint(v) == y })
	})
	return present, true
}

// keptOut reports whether the query or the measure puts a condition on
// the status column (its field or a dimension over it), or groups by it.
func keptOut(m *semantic.Model, q *semantic.Query, mt *semantic.Metric, ref, col string) bool {
	names := func(field string) bool {
		if strings.EqualFold(field, ref) {
			return true
		}
		if d := m.Dimension(field); d != nil && strings.EqualFold(strings.TrimSpace(d.Expr), ref) {
			return true
		}
		return false
	}
	for _, f := range q.Filters {
		if names(f.Field) || slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return names(w.Field) }) {
			return true
		}
	}
	for _, d := range q.Dimensions {
		if names(d.Name) {
			return true
		}
	}
	for _, f := range mt.Filters {
		if strings.Contains(strings.ToLower(f), strings.ToLower(col)) {
			return true
		}
	}
	// A measure whose formula reads the status itself ("what percentage
	// of reservations were cancelled": SUM(CASE WHEN status = 'cancelled'
	// …) over COUNT) decides row by row what each status counts for
	// (found from outside: it was told to leave the cancelled rows out).
	return strings.Contains(strings.ToLower(mt.Expr), strings.ToLower(ref))
}

// withoutExclusions is q without its conditions that keep the values of
// column ref out (ref <> v, ref NOT IN (…)), and those values.
func withoutExclusions(q *semantic.Query, ref string) (*semantic.Query, []string) {
	var out []string
	var kept []semantic.Filter
	for _, f := range q.Filters {
		if strings.EqualFold(f.Field, ref) && (f.Op == semantic.OpNe || f.Op == semantic.OpNotIn) {
			for _, v := range f.Values {
				out = append(out, fmt.Sprint(v))
			}
			continue
		}
		kept = append(kept, f)
	}
	if len(out) == 0 {
		return q, nil
	}
	c := *q
	c.Filters = kept
	return &c, out
}

// quoteList writes values as 'A', 'B' or 'C'.
func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "'" + v + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// CheckCurrencies is the check that a total or an average of money does
// not add amounts in several currencies as one.
const CheckCurrencies = "currencies_mixed"

// CurrencyCheck warns where a total, an average, a largest or a smallest
// amount takes rows in several currencies as one: the amount's table, or a table each of its rows
// refers to (a payment's invoice), has a currency column (named currency,
// curr or ccy) whose known values are two or more, and neither the query
// nor the measure keeps one, nor groups by it (found from outside: "total
// payments received in 2025" added AUD, CAD, EUR, GBP and USD). It reads
// the model alone. Empty when it does not warn.
func (a *Analyst) CurrencyCheck(m *semantic.Model, q *semantic.Query) verify.Check {
	c, _, _ := currenciesMixed(m, q)
	return c
}

// mixedCurrencies is the currency column (entity.column) and its known
// currencies where CurrencyCheck would warn of q; "" and nil where it
// would not.
func mixedCurrencies(m *semantic.Model, q *semantic.Query) (string, []string) {
	_, ref, kinds := currenciesMixed(m, q)
	return ref, kinds
}

// currenciesMixed is CurrencyCheck's warning, with the currency column
// it is of (entity.column) and that column's currencies.
func currenciesMixed(m *semantic.Model, q *semantic.Query) (verify.Check, string, []string) {
	if m == nil || q == nil || q.Rows != nil {
		return verify.Check{}, "", nil
	}
	for _, mt := range amountsOf(m, q) {
		if mt.Format == "percent" || !money(mt) {
			continue
		}
		e := m.Entity(mt.Entity)
		tables := withParents(m, e)
		if currencyColumn(e) != "" {
			// The amount's own currency says what it is in; a parent's
			// is another amount's (found from outside: invoices kept to
			// CAD warned of their installations' currencies).
			tables = []*semantic.Entity{e}
		}
		for _, t := range tables {
			if c, ref, kinds := currencyMix(m, q, mt, t); c.Name != "" {
				return c, ref, kinds
			}
		}
	}
	return verify.Check{}, "", nil
}

// money reports whether a measure may be money: its format or unit says
// so, or neither says otherwise and no column it reads is named in a unit
// that is not money (overtime_hrs, weight_kg, qty).
func money(mt *semantic.Metric) bool {
	if mt.Format == "currency" {
		return true
	}
	if u := strings.TrimSpace(mt.Unit); u != "" {
		return len(u) == 3 && strings.ToUpper(u) == u // USD, EUR
	}
	// The columns' words, not their tables' (found from outside:
	// booking_rooms.nightly_rate read as a count of rooms, so an average
	// rate took in cancelled bookings with no warning).
	var words []string
	for _, tok := range strings.FieldsFunc(strings.ToLower(mt.Expr), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r == '.' || r == '_')
	}) {
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			tok = tok[i+1:]
		}
		words = append(words, strings.FieldsFunc(tok, func(r rune) bool { return r == '_' })...)
	}
	for _, w := range words {
		switch w {
		case "hours", "hrs", "hr", "hour", "minutes", "mins", "min", "seconds", "secs", "days", "weeks",
			"kg", "kgs", "kilograms", "lbs", "grams", "tons", "tonnes", "weight", "km", "miles", "meters", "distance",
			"qty", "quantity", "units", "pieces", "pcs", "count", "score", "rating", "points", "pct", "percent", "ratio",
			"age", "duration", "headcount", "sqft", "footage", "bedrooms", "rooms", "seats", "capacity",
			// Counts of people and things (found from outside: "total num
			// guests by hotel" warned of currencies).
			"num", "number", "cnt", "nights", "guests", "adults", "children", "people", "persons", "visitors", "passengers", "attendance", "goals":
			return false
		}
	}
	return true
}

// currencyColumn is the name of e's currency column (named currency,
// curr or ccy), or "".
func currencyColumn(e *semantic.Entity) string {
	for _, c := range e.Columns {
		if currencyNamed(c.Name) {
			return c.Name
		}
	}
	return ""
}

// currencyNamed reports whether a column's name says it holds a currency.
func currencyNamed(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == ' ' || r == '-' }) {
		if w == "currency" || w == "curr" || w == "ccy" || w == "currencies" {
			return true
		}
	}
	return false
}

// currencyMix is CurrencyCheck for the currency column of table e, with
// the column (entity.column) and its currencies where it warns.
func currencyMix(m *semantic.Model, q *semantic.Query, mt *semantic.Metric, e *semantic.Entity) (verify.Check, string, []string) {
	for _, c := range e.Columns {
		named := currencyNamed(c.Name)
		var kinds []string
		for _, v := range c.Values {
			if !slices.ContainsFunc(kinds, func(k string) bool { return semantic.SameSpelling(k, v) }) {
				kinds = append(kinds, v)
			}
		}
		if !named || len(kinds) < 2 || keptOut(m, q, mt, e.Name+"."+c.Name, c.Name) {
			continue
		}
		what := measureWords(mt)
		return verify.Check{Name: CheckCurrencies, Status: verify.Warn, Detail: fmt.Sprintf("the %s takes amounts in %d currencies as one (%s of %s: %s); ask for one currency, or by %s",
			what, len(kinds), fieldWords(c.Name), e.Name, quoteList(kinds), fieldWords(c.Name))}, e.Name + "." + c.Name, kinds
	}
	return verify.Check{}, "", nil
}

// amountsOf are the query's measures that add up, average or rank an
// amount of one entity's rows (SUM, AVG, MAX or MIN over a known entity),
// not formulas of other metrics: the largest of amounts in several
// currencies is no more one figure than their total (found from outside:
// "biggest transfer fee" gave 44.5M in euros over 43.9M in pounds).
func amountsOf(m *semantic.Model, q *semantic.Query) []*semantic.Metric {
	var out []*semantic.Metric
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || m.Entity(mt.Entity) == nil {
			continue
		}
		x := strings.ToUpper(strings.TrimSpace(mt.Expr))
		if strings.HasPrefix(x, "SUM(") || strings.HasPrefix(x, "AVG(") || strings.HasPrefix(x, "MAX(") || strings.HasPrefix(x, "MIN(") {
			out = append(out, mt)
		}
		if rowCount(mt.Expr) && semantic.PaymentRows(mt.Entity) {
			// "payments by method": a failed attempt is no payment
			// (found from outside: 259 failed card payments counted, at
			// 1.00, where a total of the same rows warned).
			out = append(out, mt)
		} else if eventCount(m, mt) && !datedByCalling(m, q) {
			// "how many owners had more than 3 bookings in 2025": a
			// booking called off, or one nobody came to, did not take
			// place (found from outside: cancelled and no-show bookings
			// counted, at 1.00 with no word).
			out = append(out, mt)
		} else if e := m.Entity(mt.Entity); rowCount(mt.Expr) && e.TimeColumn == "" && len(mt.Filters) == 0 &&
			!slices.ContainsFunc(e.Columns, func(c semantic.Column) bool { return semantic.StatusName(c.Name) }) && len(withParents(m, e)) > 1 {
			// "how many tickets": rows with no date nor state of their
			// own, each of an order, are as good as their order; a
			// refunded or failed order's tickets were never sold (found
			// from outside: 8,434 for 6,896, at 1.00).
			out = append(out, mt)
		}
	}
	return out
}
