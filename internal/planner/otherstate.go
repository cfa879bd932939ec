package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// otherStatus refuses a state of another table said of the rows measured
// where those rows have a state of their own that does not hold it and
// the question does not name the other table: "how many refunds are
// pending" counted the refunds whose ticket is pending, 55, where 127
// refunds wait on a decision (status 'requested'), at 1.00 (found from
// outside). "Refunds of pending tickets" names the tickets, and is read
// so.
func (p *Planner) otherStatus(pl *Plan, items []item) *Plan {
	if pl == nil || pl.Query == nil {
		return nil
	}
	m := pl.over(p.m)
	subject := ""
	if pl.Query.Rows != nil {
		subject = pl.Query.Rows.Entity
	}
	for _, name := range pl.Query.Metrics {
		if mt := m.Metric(name); mt != nil && subject == "" {
			subject = mt.Entity
		}
	}
	own := m.Entity(subject)
	if own == nil {
		return nil
	}
	var ownState *semantic.Column
	for i, c := range own.Columns {
		if semantic.StatusName(c.Name) && len(c.Values) > 0 && !m.IsRestricted(own.Name, c.Name) {
			ownState = &own.Columns[i]
			break
		}
	}
	ownEnds := closingDates(m, own, "")
	if ownState == nil && len(ownEnds) == 0 {
		return nil
	}
	for _, f := range pl.Query.Filters {
		if f.Op == semantic.OpSome && !f.Count {
			if r := p.relatedStatus(m, f, own, ownState, ownEnds, items); r != nil {
				return r
			}
			continue
		}
		if ownState == nil {
			continue
		}
		fd, v, ok := otherState(m, f, own, ownState)
		if !ok || namedEntity(items, fd.Entity.Name) {
			continue
		}
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%q is a %s of %s, not of %s, whose %s is %s; ask for %s of %s %s, or for %s with one of their own states",
			v, display(fd.Column.Name), display(fd.Entity.Name), display(own.Name), display(ownState.Name), orList(quotedAll(ownState.Values)),
			display(own.Name), v, display(fd.Entity.Name), display(own.Name))}
	}
	return nil
}

// relatedStatus refuses a state of the rows of another table that the
// subject's rows must have (f, a filter on having them), where the
// subject has a state of its own, a status or a date that ends it, and
// the question does not name that table: "how many instructors are
// active" counted the instructors with an active enrollment, 23 where 17
// have not left; "how many courses are active", the retired ones too
// (found from outside, at 1.00). "Instructors with active enrollments"
// names them, and is read so.
func (p *Planner) relatedStatus(m *semantic.Model, f semantic.Filter, own *semantic.Entity, ownState *semantic.Column, ownEnds []string, items []item) *Plan {
	if namedEntity(items, f.Field) {
		return nil
	}
	for _, w := range f.Where {
		fd, v, ok := otherState(m, w, own, ownState)
		if !ok {
			continue
		}
		mine := "the states of their own"
		switch {
		case ownState != nil:
			mine = fmt.Sprintf("their %s (%s)", display(ownState.Name), orList(quotedAll(ownState.Values)))
		case len(ownEnds) > 0:
			mine = fmt.Sprintf("their %s, set or not", display(orList(ownEnds)))
		}
		return &Plan{Kind: KindUnanswered, Reason: fmt.Sprintf("%q is a %s of %s, not of %s, whose own state is %s; ask for %s with %s %s, or for %s by a state of their own (“current %s”)",
			v, display(fd.Column.Name), display(fd.Entity.Name), display(own.Name), mine, display(own.Name), v, display(fd.Entity.Name), display(own.Name), display(own.Name))}
	}
	return nil
}

// otherState is the status column and value that f keeps, where they are
// another table's than own's and the value is none of ownState's (nil:
// own has no status): ok is false otherwise.
func otherState(m *semantic.Model, f semantic.Filter, own *semantic.Entity, ownState *semantic.Column) (fd semantic.Field, v string, ok bool) {
	if f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
		return fd, "", false
	}
	fd, ok = m.ColumnField(f.Field)
	if !ok || strings.EqualFold(fd.Entity.Name, own.Name) || !semantic.StatusName(fd.Column.Name) {
		return fd, "", false
	}
	v, _ = f.Values[0].(string)
	if v == "" || ownState != nil && slices.ContainsFunc(ownState.Values, func(x string) bool { return strings.EqualFold(x, v) }) {
		return fd, "", false
	}
	return fd, v, true
}

// namedEntity reports whether an item of the question names entity.
func namedEntity(items []item, entity string) bool {
	for _, it := range items {
		for _, s := range it.senses {
			if s.kind == sEntity && strings.EqualFold(s.name, entity) {
				return true
			}
		}
	}
	return false
}

// quotedAll is each value in single quotes, as the reading writes them.
func quotedAll(values []string) []string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "'" + v + "'"
	}
	return q
}
