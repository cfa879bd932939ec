package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckGoneValue is the check that a value an empty answer filters on is
// still in the data.
const CheckGoneValue = "value_gone"

// goneName is the measure of the control query GoneValueCheck runs.
const goneName = "quarry_value_rows"

// GoneValueCheck warns where an answer of nothing (no rows, or a count
// of zero) filters on a value the knowledge lists of a column that no
// row holds now: the knowledge is older than the data, and the zero says
// nothing (found from outside: "reservations checked in last month" was
// 0 at full confidence, filtered on a status no reservation has had
// since learn ran). A control query counts the rows with that value
// alone. Empty when it does not warn, or the control cannot run.
func (a *Analyst) GoneValueCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result) verify.Check {
	if m == nil || q == nil || res == nil || res.Table == nil || a.Conn == nil || !nothing(res.Table) {
		return verify.Check{}
	}
	for _, f := range q.Filters {
		if f.Op != semantic.OpEq || len(f.Values) != 1 || f.OnRelated() || len(f.Where) > 0 {
			continue
		}
		v, ok := f.Values[0].(string)
		if !ok {
			continue
		}
		ent, col, ok := m.SplitField(f.Field)
		e := m.Entity(ent)
		if !ok || e == nil {
			continue
		}
		c := e.Column(col)
		if c == nil || !slices.Contains(c.Values, v) {
			continue
		}
		mm := *m
		mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: goneName, Entity: e.Name, Expr: "COUNT(*)"})
		cres, _, ok := a.control(ctx, &mm, semantic.Query{Metrics: []string{goneName}, Filters: []semantic.Filter{{Field: e.Name + "." + c.Name, Op: semantic.OpEq, Values: []any{v}}}}, 1)
		if !ok || len(cres.Table.Rows) != 1 || len(cres.Table.Rows[0]) != 1 {
			continue
		}
		if n, ok := semantic.NumberOf(cres.Table.Rows[0][0]); ok && n == 0 {
			return verify.Check{Name: CheckGoneValue, Status: verify.Warn, Detail: fmt.Sprintf(
				"%q is a value the knowledge lists of %s.%s, but no row holds it now, so the answer of nothing says nothing; run quarry learn to read the values again", v, e.Name, c.Name)}
		}
	}
	return verify.Check{}
}

// nothing reports whether a result holds no rows, or one row of zeros
// and empty cells.
func nothing(t *quarry.Table) bool {
	if len(t.Rows) == 0 {
		return true
	}
	if len(t.Rows) > 1 {
		return false
	}
	for _, v := range t.Rows[0] {
		if v == nil {
			continue
		}
		if n, ok := semantic.NumberOf(v); !ok || n != 0 {
			if s, isText := v.(string); !isText || strings.TrimSpace(s) != "" {
				return false
			}
		}
	}
	return true
}
