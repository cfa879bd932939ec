package analyst

import (
	"fmt"
	"slices"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// ownFlagUnread warns where a count of a table's rows takes in those a
// yes/no column of its own, named for the very thing the table is, marks
// no: event_attendance.attended (a registration that did not attend is a
// row of attendance all the same), deliveries.delivered. Found from
// outside: "attendance by event type" counted every registration, no-shows
// too, 25–30% over, at 1.00. A query that reads the column passes.
func ownFlagUnread(m *semantic.Model, q *semantic.Query) verify.Check {
	names := slices.Clone(q.Metrics)
	for _, name := range q.Metrics {
		// "average attendance per event": the count of its first part.
		if mt := m.Metric(name); mt != nil && mt.Derived != "" {
			names = append(names, semantic.DerivedRefs(mt.Derived)...)
		}
	}
	for _, name := range names {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || !rowCount(mt.Expr) {
			continue
		}
		e := m.Entity(mt.Entity)
		if e == nil {
			continue
		}
		ws := semantic.NameWords(e.Name)
		if len(ws) == 0 {
			continue
		}
		noun := ws[len(ws)-1]
		for _, c := range e.Columns {
			if !semantic.YesNo(c) || m.IsRestricted(e.Name, c.Name) {
				continue
			}
			word := semantic.FlagAdjective(c.Name)
			if cw := semantic.NameWords(c.Name); word == "" && len(cw) == 1 {
				word = cw[0]
			}
			if len(word) < 5 || !semantic.SameStem(word, noun) || keptOut(m, q, mt, e.Name+"."+c.Name, c.Name) {
				continue
			}
			return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s takes in every row of %s, those whose %s is not yes too (%s.%s): rows of %s that were not %s; ask for those %s to leave them out",
				measureWords(mt), e.Name, c.Name, e.Name, c.Name, fieldWords(e.Name), word, word)}
		}
	}
	return verify.Check{}
}
