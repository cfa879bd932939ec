package verify

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// MeasureDate says when a period was applied to the date that dates a
// table's rows while the measure is a quantity of an event of its own
// (qty_produced, units_scrapped), which no date of the table names, and
// the table has other dates that could be when it happened: "total qty
// produced last quarter" summed the work orders created then, not the
// quantities produced then (found from outside; the orders were
// completed, by completed_at, weeks later). It returns "" when the
// period names its date, the date is the event's, or the table has one
// date.
func MeasureDate(m *semantic.Model, q *semantic.Query) string {
	if m == nil || q == nil || q.TimeRange == nil || q.TimeRange.Field != "" || len(q.Compare) > 0 {
		return ""
	}
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" {
			continue
		}
		ent, col, ok := strings.Cut(timeColumn(m, mt), ".")
		e := m.Entity(ent)
		if !ok || e == nil {
			continue
		}
		verb := ""
		for _, ref := range columnRefRE().FindAllStringSubmatch(mt.Expr, -1) {
			for _, w := range strings.Split(strings.ToLower(ref[2]), "_") {
				if len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !atMaking(w) {
					verb = w
				}
			}
		}
		if verb == "" || sharesVerb(col, verb) {
			continue
		}
		var others []string
		for _, c := range e.Columns {
			if !c.Temporal() || strings.EqualFold(c.Name, col) || m.IsRestricted(e.Name, c.Name) || c.TimeRole == semantic.TimeRoleBirth {
				continue
			}
			others = append(others, c.Name)
		}
		if len(others) == 0 {
			continue
		}
		example := others[len(others)-1]
		for _, o := range others {
			if c := e.Column(o); c != nil && c.TimeRole == semantic.TimeRoleEnd {
				example = o
			}
		}
		return fmt.Sprintf("the period was applied to %s.%s, the day each row is dated by, but the question measures what was %s, and %s also has %s; if the period is when that happened, name that date (“… by %s in …”)",
			e.Name, col, verb, e.Name, strings.Join(others, ", "), strings.ReplaceAll(example, "_", " "))
	}
	return ""
}

// sharesVerb reports whether a column's name holds a form of verb: the
// first four letters of one of its words are the verb's.
func sharesVerb(column, verb string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(column), func(r rune) bool { return r == '_' || r == ' ' }) {
		if len(w) >= 4 && w[:4] == verb[:4] {
			return true
		}
	}
	return false
}

// atMaking reports whether a participle says what a row holds from when
// it is made (qty_planned, qty_ordered, amount_requested), so that the
// day it was made dates it.
func atMaking(w string) bool {
	switch w {
	case "planned", "ordered", "requested", "estimated", "expected", "budgeted", "projected", "forecasted", "forecast",
		"scheduled", "allocated", "quoted", "booked", "reserved", "committed", "contracted", "targeted", "proposed",
		"submitted", "created", "placed", "entered", "recorded", "registered", "logged", "issued", "invoiced", "billed",
		"listed", "offered", "promised", "assigned", "needed", "authorized", "authorised", "approved", "sanctioned":
		return true
	}
	return false
}
