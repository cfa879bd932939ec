package planner

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// noneWithPeriod refuses a count or list of rows with no related rows of
// a kind ("products with no sales since April") whose period landed on
// the subject's own date (when each product was launched) though the
// question does not name that date: the period may as well be of the
// rows that are missing, and the two readings differ (found from
// outside: 0 products launched since April, where 12 had no sale since
// then).
func (p *Planner) noneWithPeriod(question string, pl *Plan) *Plan {
	if pl == nil || pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows || pl.Query.TimeRange == nil {
		return pl
	}
	q := pl.Query
	none := ""
	for _, f := range q.Filters {
		if f.Op == semantic.OpNone {
			none = f.Field
		}
	}
	if none == "" {
		return pl
	}
	subject := ""
	if q.Rows != nil {
		subject = q.Rows.Entity
	} else if len(q.Metrics) > 0 {
		subject = p.metricEntity(q.Metrics[0], pl.AdHoc)
	}
	e := p.entity(subject)
	if e == nil || e.TimeColumn == "" {
		return pl
	}
	field := q.TimeRange.Field
	if field != "" && !strings.EqualFold(field, e.Name+"."+e.TimeColumn) {
		return pl
	}
	if namesDate(question, e.TimeColumn) {
		return pl // "products launched since April with no sales"
	}
	return p.unanswered(&state{}, fmt.Sprintf("the period may be of the %s that must be missing, which quarry cannot yet restrict to a period, or of when the %s began (%s); ask without the period, or name that date (“%s %s … with no %s”)",
		display(none), display(e.Name), e.TimeColumn, display(e.Name), strings.ReplaceAll(e.TimeColumn, "_", " "), display(none)))
}

// namesDate reports whether the question names a date column by a word of
// its name (four letters alike: "launched" for launched_on) or says "new".
func namesDate(question, column string) bool {
	qs := tokenize(question)
	for _, t := range qs {
		if t.s == "new" || t.s == "newly" {
			return true
		}
	}
	for _, w := range nameWords(column) {
		if len(w) < 4 || w == "date" || w == "time" {
			continue
		}
		for _, t := range qs {
			if len(t.s) >= 4 && t.s[:4] == w[:4] {
				return true
			}
		}
	}
	return false
}
