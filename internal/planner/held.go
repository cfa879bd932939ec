package planner

import (
	"fmt"
	"slices"
	"time"

	"github.com/quarrydata/quarry/internal/semantic"
)

// heldAt reads a count of rows that have a start and an end ("how many
// employees did we have at the end of 2025", "how many members did we
// have by March") as the rows held on that day: begun before it and not
// yet ended by it (the end empty, or on or after the day), where the
// question asks what was had ("have", "had", "were there") rather than
// what began ("hired by the end of 2025" stays the hires). Found from
// outside: the employees hired by then, those who had left included, at
// 1.00.
func (p *Planner) heldAt(question string, asOf time.Time, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric || len(pl.Query.Metrics) != 1 || len(pl.Query.Compare) > 0 {
		return pl
	}
	tr := pl.Query.TimeRange
	if tr == nil && nowSaid(question) {
		// "how many staff do we have": those not gone by today (found
		// from outside: 108 staff, 43 of whom had left).
		tr = &semantic.TimeRange{To: asOf.AddDate(0, 0, 1).Format("2006-01-02")}
	} else if tr == nil || tr.From != "" || tr.To == "" || !hadSaid(question) {
		return pl
	}
	m := pl.over(p.m)
	mt := m.Metric(pl.Query.Metrics[0])
	if mt == nil || !isCount(mt) || exprStarts(mt.Expr, "COUNT(DISTINCT") {
		return pl
	}
	e := m.Entity(mt.Entity)
	if e == nil {
		return pl
	}
	if c := e.Column(e.TimeColumn); c != nil && c.TimeRole == semantic.TimeRoleEvent {
		return pl // rows of events (orders) are made, not held
	}
	var end *semantic.Column
	for i, c := range e.Columns {
		if c.TimeRole == semantic.TimeRoleEnd && c.Temporal() && !m.IsRestricted(e.Name, c.Name) && !semantic.DeletionDate(c) {
			if end != nil {
				return pl // two ends (cancelled, expired): which one ends a row is not known
			}
			end = &e.Columns[i]
		}
	}
	if end == nil || semantic.OutcomeEnd(e.Name, end.Name) {
		return pl
	}
	ref := e.Name + "." + end.Name
	if readsColumn(m, pl.Query, []*semantic.Metric{mt}, ref, end.Name) {
		return pl
	}
	q := *pl.Query
	q.Filters = append(slices.Clone(q.Filters), semantic.Filter{Field: ref, Op: semantic.OpGe, Values: []any{tr.To}, OrNull: true})
	pl.Query = &q
	pl.Understood = append(pl.Understood, fmt.Sprintf("held on %s: %s not before it, or none", tr.To, ref))
	if pl.Query.TimeRange == nil {
		pl.Notes = append(pl.Notes, fmt.Sprintf("the %s there now: %s empty, or not before %s", display(e.Name), ref, tr.To))
		return pl
	}
	pl.Notes = append(pl.Notes, fmt.Sprintf("the %s had on the day: begun before %s and not ended by then (%s empty or on or after it)", display(e.Name), tr.To, ref))
	return pl
}

// nowSaid reports whether a question asks what is had now, with no
// period: "do we have", "are there", "currently".
func nowSaid(question string) bool {
	toks := tokenize(question)
	for i, t := range toks {
		switch t.s {
		case "currently", "now", "headcount":
			return true
		case "work", "works":
			// "how many staff work at Downtown" (found from outside:
			// 22, 10 of whom had left); not "work orders".
			if i+1 < len(toks) && (toks[i+1].s == "at" || toks[i+1].s == "in" || toks[i+1].s == "for") {
				return true
			}
		case "have", "has":
			if i > 0 && (toks[i-1].s == "we" || toks[i-1].s == "they" || toks[i-1].s == "it" || toks[i-1].s == "company") {
				return true
			}
			// "which location has the fewest staff" (found from outside:
			// ranked by every employee it ever had); not "customers who
			// have placed orders".
			if i+1 < len(toks) && rankedAfterHave[toks[i+1].s] {
				return true
			}
			// "how many drivers does each carrier have" (found from
			// outside: those who had left counted).
			if i == len(toks)-1 && slices.ContainsFunc(toks[:i], func(t token) bool { return t.s == "does" || t.s == "do" }) {
				return true
			}
		case "there":
			if i > 0 && (toks[i-1].s == "are" || toks[i-1].s == "is") {
				return true
			}
		}
	}
	return false
}

// rankedAfterHave follow "has" where it says what a row has now: "has
// the most", "has fewer than 5".
var rankedAfterHave = map[string]bool{"the": true, "most": true, "fewest": true, "least": true, "more": true, "fewer": true, "less": true, "over": true, "under": true, "no": true}

// hadSaid reports whether a question asks what was had: "have", "had",
// "has", or "there" after a form of be ("how many were there").
func hadSaid(question string) bool {
	toks := tokenize(question)
	for i, t := range toks {
		switch t.s {
		case "have", "had", "has", "headcount":
			return true
		case "there":
			if i > 0 && (toks[i-1].s == "were" || toks[i-1].s == "was" || toks[i-1].s == "are" || toks[i-1].s == "is") {
				return true
			}
		}
	}
	return false
}
