package planner

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// asksEnded reports whether q asks for rows of a table it measures or
// lists that have ended by their own end date ("how many rooms are
// retired": rooms.retired_at is not empty). A deleted owner's rows ended
// with it: they are among those asked for, not left out with it (found
// from outside: "how many rooms are retired" gave 1 for 3 at 1.00, the
// two of a closed location left out). An end that is the rows' outcome
// (a ticket resolved, an order delivered) or another thing's (a
// licence's expiry) is no such end.
func asksEnded(m *semantic.Model, q *semantic.Query, mts []*semantic.Metric, measured func(string) bool) bool {
	var asked []string
	for _, f := range q.Filters {
		if f.Op == semantic.OpNotNull || f.Op == semantic.OpLe || f.Op == semantic.OpLt {
			asked = append(asked, f.Field)
		}
	}
	for _, mt := range mts {
		// "how many retired rooms", read as a count of the rooms'
		// retired_at: those with one.
		for _, expr := range mt.Filters {
			if f, ok := semantic.ParsePredicate(expr); ok && f.Op == semantic.OpNotNull {
				asked = append(asked, f.Field)
			}
		}
		if x := strings.TrimSpace(mt.Expr); exprStarts(x, "COUNT(") && !exprStarts(x, "COUNT(DISTINCT") {
			asked = append(asked, strings.TrimSuffix(strings.TrimSpace(x[len("COUNT("):]), ")"))
		}
	}
	for _, ref := range asked {
		fld, ok := m.ColumnField(ref)
		if !ok || fld.Column == nil || !measured(fld.Entity.Name) {
			continue
		}
		e, c := fld.Entity.Name, fld.Column.Name
		if semantic.OutcomeEnd(e, c) || semantic.OthersEnd(e, c) || semantic.DeletionDate(*fld.Column) {
			continue
		}
		if fld.Column.TimeRole == semantic.TimeRoleEnd || semantic.RetiredEnd(c) {
			return true
		}
	}
	return false
}
