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
	if p.missingParent(subject, []string{none}, q) {
		return pl // "orders without a reservation last month"
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

// missingParent reports whether the one table a question says is missing
// is one the subject's rows each point at, at most one row each (orders
// without a reservation, orders.reservation_id), and the query's period
// is on the subject's own date: then the period is the subject's ("how
// many orders without a reservation last month" are last month's orders
// with none), not the missing row's. Found from outside: the period was
// put on the reservations' date inside NOT EXISTS, and every order ever
// counted, 21,733 for 366, at 1.00.
func (p *Planner) missingParent(subject string, none []string, q *semantic.Query) bool {
	subj := p.entity(subject)
	if len(none) != 1 || subj == nil || subj.TimeColumn == "" || !p.joinedDirectly(subject, none[0]) {
		return false
	}
	parent := false
	for _, r := range p.m.Relationships {
		if strings.EqualFold(r.From, subject) && strings.EqualFold(r.To, none[0]) && r.Cardinality == semantic.ManyToOne {
			parent = true
		}
	}
	if !parent {
		return false
	}
	if q.TimeRange == nil || q.TimeRange.Field == "" {
		return true
	}
	f := q.TimeRange.Field
	if d := p.m.Dimension(f); d != nil {
		if e, c, ok := simpleRef(d.Expr); ok {
			f = e + "." + c
		}
	}
	return strings.EqualFold(f, subj.Name+"."+subj.TimeColumn)
}
