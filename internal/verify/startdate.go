package verify

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// CheckStartDate is the check that a count that admits zero, kept to a
// period ("customers with fewer than 2 orders in 2025"), counts only the
// rows that existed in the period: not the customers who signed up after
// it, who had no orders then because they were not customers yet.
const CheckStartDate = "start_date"

// NotYetStarted says when a query counts rows of its subject by a count
// filter that admits zero and is kept to a period, and nothing keeps out
// the rows that started after the period: the subject has no start date
// in the knowledge (no column with time role "start"), or the query does
// not filter on it. It returns "" otherwise.
func NotYetStarted(m *semantic.Model, q *semantic.Query) string {
	if m == nil || q == nil {
		return ""
	}
	subject := querySubject(m, q)
	if subject == "" {
		return ""
	}
	for _, f := range q.Filters {
		if !f.Count || !semantic.CountAdmitsZero(f) {
			continue
		}
		end := periodEnd(f.Where)
		if end == "" {
			continue
		}
		start := m.StartColumn(subject)
		if e := m.Entity(subject); start == "" && e != nil && e.TimeColumn != "" && (startsBefore(q.Filters, e.Name+"."+e.TimeColumn, end) || rangeBefore(q, e, e.Name+"."+e.TimeColumn, end)) {
			// Kept to the rows dated before the end by their own date:
			// none that came later is counted (found from outside: the
			// warning said so of a query that left them out).
			continue
		}
		if start == "" {
			return fmt.Sprintf("%s has no start date in the knowledge (a column with time_role: start), so %s that did not exist yet before %s are counted too, with 0 %s; mark the date each one started, or read the count as over every %s there is now",
				subject, subject, end, f.Field, singular(subject))
		}
		if !startsBefore(q.Filters, start, end) && !rangeBefore(q, m.Entity(subject), start, end) {
			return fmt.Sprintf("%s that started (%s) on or after %s are counted too, with 0 %s, though they did not exist in the period", subject, start, end, f.Field)
		}
	}
	return ""
}

// querySubject is the entity whose rows a query lists or counts, or "".
func querySubject(m *semantic.Model, q *semantic.Query) string {
	if q.Rows != nil {
		if e := m.Entity(q.Rows.Entity); e != nil {
			return e.Name
		}
		return ""
	}
	if len(q.Metrics) != 1 {
		return ""
	}
	if mt := m.Metric(q.Metrics[0]); mt != nil {
		if e := m.Entity(mt.Entity); e != nil {
			return e.Name
		}
	}
	return ""
}

// periodEnd is the first day after the period that conditions on a
// count's rows keep them to (their "date < end"), or "" when none does.
func periodEnd(where []semantic.Filter) string {
	for _, w := range where {
		if w.Op != semantic.OpLt || len(w.Values) != 1 {
			continue
		}
		if s, ok := w.Values[0].(string); ok && semantic.ISODay(s) {
			return s
		}
	}
	return ""
}

// startsBefore reports whether filters keep start (entity.column) before
// end: "start < d" with d at most end.
func startsBefore(filters []semantic.Filter, start, end string) bool {
	for _, f := range filters {
		if !strings.EqualFold(f.Field, start) || f.Op != semantic.OpLt || len(f.Values) != 1 {
			continue
		}
		if s, ok := f.Values[0].(string); ok && semantic.ISODay(s) && s[:10] <= end[:10] {
			return true
		}
	}
	return false
}

// rangeBefore reports whether the query's period is on field, a date of
// the subject e (its own date where the period names none), and ends by
// end: the rows are kept to those dated before it.
func rangeBefore(q *semantic.Query, e *semantic.Entity, field, end string) bool {
	tr := q.TimeRange
	if e == nil || tr == nil || tr.To == "" || !semantic.ISODay(tr.To) || tr.To[:10] > end[:10] {
		return false
	}
	if tr.Field == "" {
		return strings.EqualFold(field, e.Name+"."+e.TimeColumn)
	}
	return strings.EqualFold(tr.Field, field)
}

// singular is a plural entity name's singular, plainly: "customers" →
// "customer".
func singular(name string) string {
	name = strings.ReplaceAll(name, "_", " ")
	if strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss") {
		return Singular(name)
	}
	return name
}
