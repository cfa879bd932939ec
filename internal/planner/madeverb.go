package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// madeInPeriod reads a status value that is a verb of making, said as
// the verb with a period ("how many lessons were booked last month",
// "guests who booked more than 5 lessons"), as the rows made then, by the
// date each was entered (created_at), whatever their status now: a
// lesson booked in May and taught in June, or cancelled since, was
// booked in May (found from outside: 0 for 210 at 1.00, read as the
// lessons still 'booked' whose day fell in May). Only where the rows are
// dated by the event they are made for (scheduled_for) and have such a
// date; "booked for next month" is the lessons still booked, by their
// day. pl where none of this holds.
func (p *Planner) madeInPeriod(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return pl
	}
	m := pl.over(p.m)
	q := pl.Query
	toks := tokenize(question)
	said := func(v string) bool {
		for i, t := range toks {
			if t.s == lower(v) {
				return i+1 >= len(toks) || toks[i+1].s != "for" && toks[i+1].s != "to"
			}
		}
		return false
	}
	made := func(f semantic.Filter) (*semantic.Entity, string, bool) {
		if f.Op != semantic.OpEq || len(f.Values) != 1 {
			return nil, "", false
		}
		v := fmt.Sprint(f.Values[0])
		fd, ok := m.ColumnField(f.Field)
		if !ok || fd.Column == nil || !semantic.StatusName(fd.Column.Name) || !makingVerb(lower(v)) || !said(v) {
			return nil, "", false
		}
		e := fd.Entity
		own := e.Name + "." + e.TimeColumn
		c := e.Column(e.TimeColumn)
		if c == nil || c.TimeRole != semantic.TimeRoleEvent {
			return nil, "", false
		}
		by := semantic.ExistedBy(e)
		if by == own || by == "" {
			return nil, "", false
		}
		return e, by, true
	}
	out := *q
	title := pl.Title
	changed := false
	var read []string
	if tr := q.TimeRange; tr != nil {
		for i, f := range q.Filters {
			e, by, ok := made(f)
			if !ok || tr.Field != "" && !strings.EqualFold(tr.Field, e.Name+"."+e.TimeColumn) {
				continue
			}
			out.Filters = slices.Delete(slices.Clone(q.Filters), i, i+1)
			t := *tr
			t.Field = by
			out.TimeRange = &t
			read = append(read, fmt.Sprintf("%q read as the %s made in the period, by %s, whatever their status now", fmt.Sprint(f.Values[0]), display(e.Name), by))
			changed = true
			break
		}
	}
	// "guests who booked more than 5 lessons": the verb of the rows
	// counted, not a condition that one of them is still 'booked' (found
	// from outside: 17 for 27, at 0.85).
	for i := 0; i < len(out.Filters); i++ {
		f := out.Filters[i]
		if f.Op != semantic.OpSome || len(f.Where) != 1 || !slices.ContainsFunc(out.Filters, func(g semantic.Filter) bool { return g.Count && strings.EqualFold(g.Field, f.Field) }) {
			continue
		}
		w := f.Where[0]
		fd, ok := m.ColumnField(w.Field)
		if !ok || fd.Column == nil || !semantic.StatusName(fd.Column.Name) || w.Op != semantic.OpEq || len(w.Values) != 1 || !makingVerb(lower(fmt.Sprint(w.Values[0]))) || !said(fmt.Sprint(w.Values[0])) {
			continue
		}
		out.Filters = slices.Delete(slices.Clone(out.Filters), i, i+1)
		read = append(read, fmt.Sprintf("%q read as the verb of the %s counted, not their status", fmt.Sprint(w.Values[0]), display(fd.Entity.Name)))
		said := fmt.Sprintf("with %s %s", fmt.Sprint(w.Values[0]), lower(display(fd.Entity.Name)))
		title = strings.Replace(strings.Replace(title, ", "+said, "", 1), " "+said, "", 1)
		changed = true
		i--
	}
	if !changed {
		return pl
	}
	res := *pl
	res.Query, res.Title = &out, title
	res.Understood = append(slices.Clone(pl.Understood), read...)
	return &res
}
