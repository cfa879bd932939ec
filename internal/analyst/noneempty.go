package analyst

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// noneEmptyControl is, for a list of rows that must have none of
// something ("which menu items have never been ordered") that came back
// empty, what a control query finds: the same rows without those
// conditions, one of them being enough. Where there are such rows, none
// left is the answer (every menu item has been ordered), not a filter
// that excluded everything (found from outside: the empty list, right,
// shown at 0.40 as a failed empty_result). "" where the result has rows,
// the list has no such condition, or the control finds none either.
func (a *Analyst) noneEmptyControl(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result) string {
	if q == nil || q.Rows == nil || res == nil || res.Table == nil || len(res.Table.Rows) > 0 || res.Truncated || a.Conn == nil {
		return ""
	}
	var missing []string
	all := *q
	all.Filters = nil
	for _, f := range q.Filters {
		if f.Op == semantic.OpNone {
			missing = append(missing, f.Field)
			continue
		}
		all.Filters = append(all.Filters, f)
	}
	if len(missing) == 0 {
		return ""
	}
	all.Limit, all.Order = 1, nil
	ctl, c, ok := a.control(ctx, m, all, 1)
	if !ok || len(ctl.Table.Rows) == 0 {
		return ""
	}
	return fmt.Sprintf("%s has rows without the condition that they have no %s, so every one has some (control query: %s)", q.Rows.Entity, strings.Join(missing, " or "), c.SQL)
}
