package analyst

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// control compiles a control query of a check against m, passes it
// through the guard and reads at most maxRows of its rows, as the check's
// own query to the user's database. It reports false when the query cannot
// be built, is refused or fails: a check without its control says nothing.
func (a *Analyst) control(ctx context.Context, m *semantic.Model, q semantic.Query, maxRows int) (*Result, *semantic.Compiled, bool) {
	c, err := semantic.Compile(m, q, a.Conn.Dialect())
	if err != nil {
		return nil, nil, false
	}
	if v := a.Guard.Check(ctx, c.SQL); !v.Allowed {
		return nil, nil, false
	}
	l := a.Limits
	l.MaxRows, l.KeepRows = int64(maxRows), maxRows
	res, err := a.read(ctx, c.SQL, l, nil)
	if err != nil || res.Table == nil {
		return nil, nil, false
	}
	return res, c, true
}

// CheckTies is the check that a ranking's limit did not cut a tie.
const CheckTies = "ties"

// TieCheck reads one row past a ranking's limit (the same semantic query
// with limit + 1, through the guard) and warns when that row ties the
// last one kept: "which department has the most employees" answered
// Engineering while Customer Support has as many. The check names the
// control query, which reached the database. It returns an empty
// check when the query is not a ranking or the control cannot run.
func (a *Analyst) TieCheck(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	if q == nil || q.Limit == 0 || q.Limit > 1000 || len(q.Order) == 0 || len(q.Compare) > 0 || a.Conn == nil {
		return verify.Check{}
	}
	more := *q
	more.Limit++
	more.Hidden = nil // the measure ranked by, to compare
	if q.Rows != nil {
		// A list sorted and cut ("the 5 cheapest products"): the sort
		// column beside the columns listed.
		rows := *q.Rows
		rows.Distinct = false
		rows.Columns = append(append([]string(nil), q.Rows.Columns...), q.Order[0].Field)
		if len(q.Rows.Columns) == 0 {
			rows.Columns = []string{q.Order[0].Field}
		}
		more.Rows = &rows
	}
	res, c, ok := a.control(ctx, m, more, more.Limit)
	if !ok {
		return verify.Check{}
	}
	measure, label := -1, -1
	_, sortCol, _ := strings.Cut(q.Order[0].Field, ".")
	for i, col := range c.Columns {
		if (col.Name == q.Order[0].Field || q.Rows != nil && col.Name == sortCol) && measure < 0 {
			measure = i
		}
		if q.Rows != nil && col.Role == semantic.RoleColumn && label < 0 && col.Name != sortCol {
			label = i
		}
		if col.Role == semantic.RoleDimension && label < 0 {
			label = i
		}
	}
	rows := res.Table.Rows
	if measure < 0 {
		return verify.Check{}
	}
	if len(rows) <= q.Limit || fmt.Sprint(quarry.JSONValue(rows[q.Limit-1][measure])) != fmt.Sprint(quarry.JSONValue(rows[q.Limit][measure])) {
		return verify.Check{Name: CheckTies, Status: verify.Pass, Detail: fmt.Sprintf("no row past the limit of %d ties the last one (control query: %s)", q.Limit, c.SQL)}
	}
	last, next := rows[q.Limit-1], rows[q.Limit]
	name := func(r []any) string {
		if label < 0 {
			return "another row"
		}
		return fmt.Sprint(quarry.JSONValue(r[label]))
	}
	return verify.Check{Name: CheckTies, Status: verify.Warn, Detail: fmt.Sprintf("%s ties %s at %v on %s; the limit of %d kept only the first (control query: %s)", name(next), name(last), quarry.JSONValue(last[measure]), q.Order[0].Field, q.Limit, c.SQL)}
}
