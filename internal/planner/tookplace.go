package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// tookPlace keeps the related rows a verb of taking part says the
// subject's rows had to those that took place: "German guests who took a
// freeride clinic" are those with a completed lesson of that kind, as
// "guests who never took one" are those with none completed (boughtNone).
// A lesson cancelled, missed or still to come was not taken (found from
// outside: "took" ignored, and every booked lesson counted, 38 for 30 at
// 1.00). The state is the one status value that says a row is done, on
// the related table or the one table that links it to the subject; where
// neither has one, or the question names a status of that table already,
// the plan is left as it is. It returns the verb it read, or "".
func (p *Planner) tookPlace(question string, pl *Plan, items []item) string {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return ""
	}
	m := pl.over(p.m)
	subject := ""
	if q := pl.Query; q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		if mt := m.Metric(q.Metrics[0]); mt != nil {
			subject = mt.Entity
		}
	}
	if subject == "" {
		return ""
	}
	for i, it := range items {
		if it.kind != itStop || !doneVerb(it.text) {
			continue
		}
		t := termAfterVerb(items, i)
		if t == nil {
			if v := p.tookRows(pl, items, i, subject); v != "" {
				return v
			}
			continue
		}
		for j := range pl.Query.Filters {
			f := &pl.Query.Filters[j]
			if f.Op != semantic.OpSome || f.Count || !saysOf(t, f.Field) {
				continue
			}
			done, ok := p.doneOnPath(m, subject, f.Field)
			if !ok || slices.ContainsFunc(f.Where, func(w semantic.Filter) bool { return strings.EqualFold(w.Field, done.Field) }) {
				continue
			}
			f.Where = append(slices.Clone(f.Where), done)
			ent, _, _ := strings.Cut(done.Field, ".")
			pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %s rows whose %s is %v: one called off, missed or still to come was not %s", it.text, ent, done.Field, done.Values[0], it.text))
			if on, ok := periodTaken(m, pl.Query, subject, ent, question); ok {
				// "which guests took a private lesson this year": the
				// lesson's year, on the day it took place, not the
				// guest's signup (found from outside: the guests who
				// signed up this year, at 1.00).
				f.Where = append(f.Where, on...)
				pl.Query.TimeRange = nil
				pl.Understood = append(pl.Understood, fmt.Sprintf("the period is the %s's, on %s", display(ent), on[0].Field))
			}
			pl.Ignored = slices.DeleteFunc(pl.Ignored, func(w string) bool { return w == it.text })
			return it.text
		}
	}
	return ""
}

// termAfterVerb is the term right after items[i], past an article or a
// determiner ("took a freeride clinic", "attended any classes"), or nil.
func termAfterVerb(items []item, i int) *item {
	for j := i + 1; j < len(items); j++ {
		switch items[j].kind {
		case itTerm:
			return &items[j]
		case itStop:
			switch items[j].text {
			case "a", "an", "the", "any", "some", "one", "their", "his", "her", "its", "our":
				continue
			}
		}
		return nil
	}
	return nil
}

// saysOf reports whether a term names entity: the table itself, or a
// value or column of it.
func saysOf(t *item, entity string) bool {
	return slices.ContainsFunc(t.senses, func(s sense) bool {
		return s.kind == sEntity && strings.EqualFold(s.name, entity) || s.entity != "" && strings.EqualFold(s.entity, entity)
	})
}

// doneOnPath is the done state (completedState) of related, or else of
// the one table whose rows link related to subject's ("guests" and
// "lesson types" by way of lessons).
func (p *Planner) doneOnPath(m *semantic.Model, subject, related string) (semantic.Filter, bool) {
	if f, ok := p.completedState(related); ok {
		return f, true
	}
	path, ok := m.Related(subject, related)
	if !ok || strings.EqualFold(path.Link, related) {
		return semantic.Filter{}, false
	}
	return p.completedState(path.Link)
}

// periodTaken is the query's period put on the date of done's table, the
// rows the verb says took place: where the period is the subject's own
// date, not compared or grouped by time, and the question does not say
// the subject is new ("new guests who took a lesson this year": whose
// year?). false where it is not so, or done's table has no date.
func periodTaken(m *semantic.Model, q *semantic.Query, subject, done, question string) ([]semantic.Filter, bool) {
	tr := q.TimeRange
	if tr == nil || tr.From == "" && tr.To == "" || len(q.Compare) > 0 || slices.ContainsFunc(q.Dimensions, func(d semantic.DimRef) bool { return d.Grain != "" }) {
		return nil, false
	}
	if strings.Contains(" "+lower(question)+" ", " new ") {
		return nil, false
	}
	s, e := m.Entity(subject), m.Entity(done)
	if s == nil || e == nil || e.TimeColumn == "" || tr.Field != "" && !strings.EqualFold(tr.Field, s.Name+"."+s.TimeColumn) {
		return nil, false
	}
	field := e.Name + "." + e.TimeColumn
	var on []semantic.Filter
	if tr.From != "" {
		on = append(on, semantic.Filter{Field: field, Op: semantic.OpGe, Values: []any{tr.From}})
	}
	if tr.To != "" {
		on = append(on, semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{tr.To}})
	}
	return on, true
}

// tookRows reads a verb of taking part that ends the question, after an
// auxiliary, as said of the measured rows themselves: "how many lessons
// did Anna Miller take" counts the lessons she took, not those cancelled
// or missed (found from outside: 15 for 12 completed, "take" ignored).
// Only a count, of rows with a done state (completedState) the question
// names no state of; "how many orders took more than 3 days" has no
// auxiliary before its verb, and a term after it. It returns the verb
// it read, or "".
func (p *Planner) tookRows(pl *Plan, items []item, i int, subject string) string {
	for _, it := range items[i+1:] {
		if it.kind != itStop && it.kind != itDate {
			return ""
		}
	}
	aux := false
	for _, it := range items[:i] {
		if it.kind == itStop {
			switch it.text {
			case "did", "do", "does", "has", "have", "had":
				aux = true
			}
		}
	}
	q := pl.Query
	if !aux || q.Rows != nil || len(q.Metrics) != 1 {
		return ""
	}
	m := pl.over(p.m)
	mt := m.Metric(q.Metrics[0])
	if mt == nil || mt.Derived != "" || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(") || !strings.EqualFold(mt.Entity, subject) {
		return ""
	}
	done, ok := p.completedState(subject)
	if !ok || slices.ContainsFunc(q.Filters, func(f semantic.Filter) bool { return strings.EqualFold(f.Field, done.Field) }) {
		return ""
	}
	q.Filters = append(slices.Clone(q.Filters), done)
	verb := items[i].text
	pl.Understood = append(pl.Understood, fmt.Sprintf("%q read as %s rows whose %s is %v: one called off, missed or still to come was not %s", verb, subject, done.Field, done.Values[0], verb))
	pl.Ignored = slices.DeleteFunc(pl.Ignored, func(w string) bool { return w == verb })
	return verb
}
