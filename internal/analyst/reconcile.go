package analyst

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckReconcile is the check that a grouped result adds up to the same
// measure computed without the grouping.
const CheckReconcile = "reconcile"

// ReconcileCheck holds a grouped result of additive measures (a SUM or a
// COUNT) to an independent control: the same query without its grouping,
// order and limit, through the guard. The groups must add up to the
// control's total. Less means rows fell outside every group (a join that
// lost them, a group left out); more means rows were counted in several
// groups — a fan-out, which a reader must know about. A count of distinct
// things may exceed the total legitimately (a customer who ordered through
// two channels is in both), so there the check passes and says so. It
// The same holds when the compiler kept one row per measured row and group
// (Compiled.FanOutGuarded: an order with a book and a toy counts once under
// each category). It returns an empty check when there is nothing to reconcile: no grouping,
// a limit or a filter on a measure (the result is a part of the whole), a
// truncated result, no additive measure, or a median (medians of groups
// do not add up to anything).
func (a *Analyst) ReconcileCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, res *Result, compiled *semantic.Compiled) verify.Check {
	if q == nil || compiled == nil || res == nil || res.Table == nil || res.Truncated || a.Conn == nil ||
		len(q.Dimensions) == 0 || q.Limit > 0 || len(q.Compare) > 0 || q.Share || q.Rows != nil || q.Percentile != 0 || len(res.Table.Rows) < 2 {
		return verify.Check{}
	}
	for _, f := range q.Filters {
		if m.Metric(f.Field) != nil && !f.OnRelated() {
			return verify.Check{}
		}
	}
	kinds := map[string]string{}
	var names []string
	for _, name := range q.Metrics {
		if mt := m.Metric(name); mt != nil && mt.Derived == "" {
			if k := verify.Additive(mt.Expr); k != "" {
				kinds[name] = k
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return verify.Check{}
	}
	whole := *q
	whole.Dimensions, whole.Order, whole.Limit, whole.Hidden = nil, nil, 0, nil
	whole.Metrics = names
	ctl, c, ok := a.control(ctx, m, whole, 2)
	if !ok || len(ctl.Table.Rows) != 1 {
		return verify.Check{}
	}
	var notes []string
	status := verify.Pass
	for _, name := range names {
		gi, ci := columnIndex(res.Table, name), columnIndex(ctl.Table, name)
		if gi < 0 || ci < 0 {
			continue
		}
		total, ok := quarry.Float(ctl.Table.Rows[0][ci])
		if !ok {
			total = 0 // no rows at all: SUM is NULL
		}
		var sum float64
		for _, r := range res.Table.Rows {
			if f, ok := quarry.Float(r[gi]); ok {
				sum += f
			}
		}
		kind := kinds[name]
		if compiled.FanOutGuarded {
			// The compiler kept one row per measured row and group: a row
			// in two groups counts once in each, by design.
			kind = "distinct"
		}
		st, note := reconcile(name, kind, len(res.Table.Rows), sum, total)
		if st != verify.Pass {
			status = st
		}
		notes = append(notes, note)
	}
	if len(notes) == 0 {
		return verify.Check{}
	}
	return verify.Check{Name: CheckReconcile, Status: status, Detail: strings.Join(notes, "; ") + " (control query: " + c.SQL + ")"}
}

// reconcile compares the sum of a measure's groups with its total.
func reconcile(name, kind string, groups int, sum, total float64) (status, note string) {
	switch {
	case math.Abs(sum-total) <= 0.005+1e-9*math.Abs(total):
		return verify.Pass, fmt.Sprintf("the %d groups of %s add up to the total of %s", groups, name, show(total))
	case sum < total:
		return verify.Warn, fmt.Sprintf("the groups of %s add up to %s but the total is %s: %s is in no group shown", name, show(sum), show(total), show(total-sum))
	case kind == "distinct":
		return verify.Pass, fmt.Sprintf("the groups of %s add up to %s, more than the %s in all: some are counted in more than one group", name, show(sum), show(total))
	}
	return verify.Warn, fmt.Sprintf("the groups of %s add up to %s, more than the total of %s: some rows are counted in more than one group", name, show(sum), show(total))
}

func columnIndex(t *quarry.Table, name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

func show(f float64) string {
	if f == math.Trunc(f) {
		return narrate.Number(f, narrate.FormatInteger, "")
	}
	return narrate.Number(f, narrate.FormatNumber, "")
}
