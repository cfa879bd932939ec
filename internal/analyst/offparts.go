package analyst

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner"
	"github.com/quarrydata/quarry/internal/semantic"
)

// calledOffParts leaves out, of each count a derived measure of the plan
// divides ("average number of lessons per guest": the lessons, then the
// guests), the rows called off, where those rows are dated by the day
// they take place, as calledOffAhead does of a count asked alone
// (tookPlaceOn, or a date set ahead): a cancelled lesson is no lesson a guest had
// (found from outside: 2.10 lessons per guest for 1.79, at 1.00, where
// "how many lessons" left them out). Only counts the plan made itself
// (its ad hoc measures) are changed; a measure of the knowledge says what
// it takes. pl where none changes.
func calledOffParts(m *semantic.Model, pl *planner.Plan, asOf time.Time, planned func(field string) bool) *planner.Plan {
	q := pl.Query
	if q == nil || q.TimeRange == nil || len(q.Compare) > 0 || q.Rows != nil || len(q.Metrics) != 1 {
		return pl
	}
	mt := m.Metric(q.Metrics[0])
	if mt == nil || mt.Derived == "" {
		return pl
	}
	adhoc := slices.Clone(pl.AdHoc)
	past := q.TimeRange.To != "" && q.TimeRange.To <= asOf.AddDate(0, 0, 1).Format("2006-01-02")
	var notes []string
	for i := range adhoc {
		part := &adhoc[i]
		e := m.Entity(part.Entity)
		if !strings.Contains(mt.Derived, "{"+part.Name+"}") || e == nil || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(part.Expr)), "COUNT(") {
			continue
		}
		field := m.MetricTime(part)
		if !strings.HasPrefix(strings.ToLower(field), strings.ToLower(e.Name)+".") || past && !tookPlaceOn(e, field) && !planned(field) {
			continue // rows dated by their making: a cancelled order was still placed
		}
		f, note, ok := calledOff(m, e, q, false)
		if !ok {
			continue
		}
		if past {
			note = strings.Replace(note, "they will not happen", "they did not take place", 1)
		}
		part.Filters = append(slices.Clone(part.Filters), predicateSQL(f))
		notes = append(notes, note)
	}
	if len(notes) == 0 {
		return pl
	}
	out := *pl
	out.AdHoc = adhoc
	out.Notes = append(slices.Clone(pl.Notes), notes...)
	return &out
}

// predicateSQL writes a filter of text values that calledOff makes (NOT
// IN, or empty) as a measure's SQL predicate.
func predicateSQL(f semantic.Filter) string {
	vals := make([]string, len(f.Values))
	for i, v := range f.Values {
		vals[i] = "'" + strings.ReplaceAll(fmt.Sprint(v), "'", "''") + "'"
	}
	s := f.Field + " NOT IN (" + strings.Join(vals, ", ") + ")"
	if f.OrNull {
		s += " OR " + f.Field + " IS NULL" // put in parentheses by the compiler
	}
	return s
}

// noPeriodCalledOff is calledOffAhead and calledOffParts of a plan with
// no period, as of asOf: the rows called off are left out as they are
// of a period that ended then, and the plan keeps its own period (none,
// or the as-of day's bound). pl where nothing is left out.
func noPeriodCalledOff(m *semantic.Model, pl *planner.Plan, asOf time.Time, planned func(field string) bool) *planner.Plan {
	q := pl.Query
	probe := *pl
	if q.TimeRange == nil {
		pq := *q
		pq.TimeRange = &semantic.TimeRange{To: asOf.AddDate(0, 0, 1).Format("2006-01-02")}
		probe.Query = &pq
	}
	co := calledOffParts(m, calledOffAhead(m, &probe, asOf, planned), asOf, planned)
	if co == &probe {
		return pl
	}
	cq := *co.Query
	cq.TimeRange = q.TimeRange
	out := *co
	out.Query = &cq
	return &out
}
