package analyst

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// pendingLive leaves out of a plan kept to rows still without what each
// is to get (pendingFilter) those called off, which will not need it
// (calledOff): a cancelled lesson needs no instructor.
func pendingLive(m *semantic.Model, e *semantic.Entity, pl *planner.Plan) *planner.Plan {
	f, note, ok := calledOff(m, e, pl.Query, false)
	if !ok {
		return pl
	}
	c := *pl.Query
	c.Filters = append(slices.Clone(c.Filters), f)
	out := *pl
	out.Query = &c
	out.Notes = append(slices.Clone(pl.Notes), strings.Replace(note, "they will not happen", "they need nothing", 1))
	return &out
}

// pendingEntity is the table whose rows q measures, where q keeps them
// to those still without what each is to get (pendingFilter), or nil.
func pendingEntity(m *semantic.Model, q *semantic.Query) *semantic.Entity {
	var e *semantic.Entity
	if len(q.Metrics) == 1 {
		if mt := m.Metric(q.Metrics[0]); mt != nil && mt.Derived == "" {
			e = m.Entity(mt.Entity)
		}
	} else if len(q.Metrics) == 0 {
		e = rowsEntity(m, q)
	}
	if e == nil || !slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return pendingFilter(m, e, f) }) {
		return nil
	}
	return e
}

// pendingFilter reports whether f keeps e's rows to those still without
// what each is to get: a link not set yet ("lessons with no instructor":
// instructor_id empty) or a date of what is to happen to each not set
// yet (returned_at empty), other than the date e's rows are dated by.
func pendingFilter(m *semantic.Model, e *semantic.Entity, f semantic.Filter) bool {
	if e == nil || f.Op != semantic.OpNull {
		return false
	}
	ent, col, ok := strings.Cut(f.Field, ".")
	if !ok || !strings.EqualFold(ent, e.Name) || strings.EqualFold(col, e.TimeColumn) {
		return false
	}
	if c := e.Column(col); c != nil && c.Temporal() {
		return c.TimeRole == semantic.TimeRoleEnd || c.TimeRole == semantic.TimeRoleEvent
	}
	return slices.ContainsFunc(m.Relationships, func(r semantic.Relationship) bool {
		return strings.EqualFold(r.From, e.Name) && strings.EqualFold(r.FromColumn, col)
	})
}
