package analyst

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// eventCount reports whether mt counts the rows of a table of dated
// events (its main date is the day each takes place: a booking's, a
// job's, an order's, not a subscription's start) that has a status column
// of its own, where neither the measure's conditions nor its description
// says which states it takes: the knowledge's "number of orders placed,
// whatever their status" is what its author meant.
func eventCount(m *semantic.Model, mt *semantic.Metric) bool {
	if !rowCount(mt.Expr) || semantic.PaymentRows(mt.Entity) || len(mt.Filters) > 0 || statusSaid(mt) {
		return false
	}
	return calledOffColumn(m.Entity(mt.Entity)) != nil
}

// rowCount reports whether a measure's formula counts rows (COUNT(x)),
// not different values (COUNT(DISTINCT x)).
func rowCount(expr string) bool {
	x := strings.ToUpper(strings.TrimSpace(expr))
	return strings.HasPrefix(x, "COUNT(") && !strings.HasPrefix(x, "COUNT(DISTINCT")
}

// statusSaid reports whether a measure's description speaks of the
// statuses it takes ("whatever their status").
func statusSaid(mt *semantic.Metric) bool {
	return strings.Contains(strings.ToLower(mt.Description), "status")
}

// calledOffColumn is the status column of e, a table of dated events (its
// main date the day each takes place), whose known values say some did
// not take place; nil where there is none.
func calledOffColumn(e *semantic.Entity) *semantic.Column {
	if e == nil || e.TimeColumn == "" {
		return nil
	}
	if t := e.Column(e.TimeColumn); t == nil || t.TimeRole != semantic.TimeRoleEvent {
		return nil
	}
	for i := range e.Columns {
		if c := &e.Columns[i]; semantic.StatusName(c.Name) && slices.ContainsFunc(c.Values, calledOffEvent) {
			return c
		}
	}
	return nil
}

// countedStatuses warns where a query keeps rows by how many rows of a
// table of dated events each has ("customers with more than 5 bookings")
// and the count takes in those called off or not attended, with no
// condition on their status (found from outside: 122 customers with
// more than 5 bookings, 76 where the cancelled ones are left out, at
// 1.00 with no word). A count the knowledge describes by its status
// ("number of orders placed, whatever their status") is what its author
// meant, and is left alone.
func countedStatuses(m *semantic.Model, q *semantic.Query) verify.Check {
	for _, f := range q.Filters {
		e := m.Entity(f.Field)
		if !f.Count || e == nil {
			continue
		}
		c := calledOffColumn(e)
		if c == nil || m.IsRestricted(e.Name, c.Name) || describedCount(m, e.Name) {
			continue
		}
		ref := e.Name + "." + c.Name
		if slices.ContainsFunc(f.Where, func(w semantic.Filter) bool {
			return strings.EqualFold(w.Field, ref) || strings.EqualFold(w.Field, c.Name)
		}) {
			continue
		}
		off, others := splitValues(c.Values, calledOffEvent)
		if len(others) == 0 {
			continue
		}
		return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the number of %s counted for each takes in those whose %s is %s; ask for %s %s alone to leave them out",
			e.Name, fieldWords(c.Name), quoteList(off), quoteList(others), e.Name)}
	}
	return verify.Check{}
}

// describedCount reports whether the knowledge has a plain count of
// entity's rows whose description says which statuses it takes.
func describedCount(m *semantic.Model, entity string) bool {
	for i := range m.Metrics {
		if mt := &m.Metrics[i]; strings.EqualFold(mt.Entity, entity) && len(mt.Filters) == 0 && rowCount(mt.Expr) && statusSaid(mt) {
			return true
		}
	}
	return false
}

// datedByCalling reports whether q dates its rows, or groups them in
// time, by a date named for a state of calling off ("bookings cancelled
// this year": cancelled_at), which only the rows so called off hold.
func datedByCalling(m *semantic.Model, q *semantic.Query) bool {
	var fields []string
	if q.TimeRange != nil {
		fields = append(fields, q.TimeRange.Field)
	}
	for _, d := range q.Dimensions {
		if d.Grain != "" {
			fields = append(fields, d.Name)
		}
	}
	for _, f := range fields {
		if fd, ok := m.ColumnField(f); ok && slices.ContainsFunc(semantic.NameWords(fd.Column.Name), calledOffEvent) {
			return true
		}
	}
	return false
}

// calledOffEvent reports whether a status says an event did not take
// place: called off, failed, or nobody came.
func calledOffEvent(v string) bool {
	return semantic.CalledOff(v) || semantic.NoShow(v) || slices.Contains([]string{"failed", "fail", "bounced", "reversed"}, semantic.Fold(v))
}
