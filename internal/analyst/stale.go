package analyst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckStaleState is the check that rows kept to a status saying they are
// still going (active, open) have not ended by their own dates, and that
// rows kept to one saying they are still to come (planned) have not
// passed theirs.
const CheckStaleState = "stale_status"

// goingStates are the statuses that say a row has not ended.
var goingStates = []string{"active", "open", "ongoing", "in progress", "running", "current", "live", "in force", "inforce", "enabled", "valid", "trialing", "trialling", "in trial"}

// StaleStateCheck warns where a query keeps rows to a status that says
// they are still going ("active policies") and some of those rows have a
// date that ends them before today: "how many active policies" counted
// 3,219 where 1,498 of them had run out by their end_date, the status
// never updated (found from outside, at 1.00). The status is the
// database's word and is kept; the warning says how many rows it holds
// that their own dates say have ended, so a reader knows the figure
// rests on it. A control query per end date counts them under the
// query's conditions (a status said of related rows, "customers with an
// active policy", is counted on those rows); where none has, or a control
// cannot run, it does not warn.
func (a *Analyst) StaleStateCheck(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	if m == nil || q == nil || a.Conn == nil {
		return verify.Check{}
	}
	today := a.now().Format("2006-01-02")
	var parts []string
	coming := false
	// walk reads the filters fs, said with those of with (the query's,
	// or those on the same related rows).
	var walk func(fs, with []semantic.Filter, top bool)
	walk = func(fs, with []semantic.Filter, top bool) {
		for _, f := range fs {
			walk(f.Where, f.Where, false)
			if e, col, ok := comingFilter(m, f); ok {
				// "planned enrollments" whose start_date has passed:
				// still to come by the status, over by the date (found
				// from outside: 146 planned enrollments as of a day after
				// every one had ended, at 1.00, with no word).
				for _, c := range e.Columns {
					if !c.Temporal() || m.IsRestricted(e.Name, c.Name) || madeName(c.Name) || c.TimeRole == semantic.TimeRoleEnd ||
						c.TimeRole != semantic.TimeRoleStart && !strings.EqualFold(c.Name, e.TimeColumn) {
						continue
					}
					field := e.Name + "." + c.Name
					n, ok := a.countWhere(ctx, m, e, append(slices.Clone(with), semantic.Filter{Field: field, Op: semantic.OpLt, Values: []any{today}}), q.TimeRange, top)
					if ok && n > 0 {
						parts = append(parts, fmt.Sprintf("%d %s with %s %s have %s before today", n, e.Name, col, valuesText(f.Values), c.Name))
						coming = true
					}
				}
				continue
			}
			e, col, ok := goingFilter(m, f)
			if !ok {
				continue
			}
			for _, c := range e.Columns {
				if !c.Temporal() || m.IsRestricted(e.Name, c.Name) {
					continue
				}
				// An end by its role, or by a name that says the row runs
				// out then (valid_to, expires_on: learn gives such a name
				// no role where it is not set for every row); a start by a
				// name that says the row is valid from then (found from
				// outside: "how many active coupons" counted 16, 11 past
				// their valid_to and one not valid yet, with no warning).
				cond, when := semantic.OpLt, "before"
				switch {
				case semantic.ValidFrom(c.Name), c.TimeRole == semantic.TimeRoleStart:
					// Begun after today: none yet (found from outside: 8
					// 'trialing' subscriptions starting later counted).
					cond, when = semantic.OpGt, "after"
				case c.TimeRole == semantic.TimeRoleEnd, c.TimeRole == "" && semantic.RunsOut(c.Name) && !semantic.OthersEnd(e.Name, c.Name):
				default:
					continue
				}
				field := e.Name + "." + c.Name
				n, ok := a.countWhere(ctx, m, e, append(slices.Clone(with), semantic.Filter{Field: field, Op: cond, Values: []any{today}}), q.TimeRange, top)
				if ok && n > 0 {
					parts = append(parts, fmt.Sprintf("%d %s with %s %s have %s %s today", n, e.Name, col, valuesText(f.Values), c.Name, when))
				}
			}
		}
	}
	walk(q.Filters, q.Filters, true)
	// A measure kept to the status by its own condition ("MRR": of
	// active subscriptions).
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			continue
		}
		own := slices.Clone(q.Filters)
		for _, expr := range mt.Filters {
			if f, ok := semantic.ParsePredicate(expr); ok {
				own = append(own, f)
			}
		}
		walk(own[len(q.Filters):], own, true)
	}
	if len(parts) == 0 {
		return verify.Check{}
	}
	says := "the status says they are in force, their dates that they are not"
	if coming {
		says = "the status says they are still to come, their dates that they are not"
	}
	return verify.Check{Name: CheckStaleState, Status: verify.Warn,
		Detail: strings.Join(parts, "; ") + ": " + says + "; the answer goes by the status, which may not have been updated"}
}

// comingFilter reports whether f keeps rows to statuses that each say a
// row's thing is still to come (planned, scheduled), and of which table
// and column.
func comingFilter(m *semantic.Model, f semantic.Filter) (*semantic.Entity, string, bool) {
	if f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
		return nil, "", false
	}
	fd, ok := m.ColumnField(f.Field)
	if !ok || fd.Entity.PrimaryKey == "" || !semantic.StatusName(fd.Column.Name) {
		return nil, "", false
	}
	for _, v := range f.Values {
		s, ok := v.(string)
		if !ok || !semantic.StillToCome(s) {
			return nil, "", false
		}
	}
	return fd.Entity, fd.Column.Name, true
}

// goingFilter reports whether f keeps rows to statuses that each say a
// row is still going, and of which table and column.
func goingFilter(m *semantic.Model, f semantic.Filter) (*semantic.Entity, string, bool) {
	if f.Op != semantic.OpEq && f.Op != semantic.OpIn || len(f.Values) == 0 {
		return nil, "", false
	}
	fd, ok := m.ColumnField(f.Field)
	if !ok || fd.Entity.PrimaryKey == "" {
		return nil, "", false
	}
	for _, v := range f.Values {
		s, ok := v.(string)
		if !ok || !slices.Contains(goingStates, strings.ReplaceAll(semantic.Fold(s), "_", " ")) {
			return nil, "", false
		}
	}
	return fd.Entity, fd.Column.Name, true
}

// countWhere counts the different rows of e that meet filters (and the
// period tr, where top: the query's own), by a control query through the
// guard.
func (a *Analyst) countWhere(ctx context.Context, m *semantic.Model, e *semantic.Entity, filters []semantic.Filter, tr *semantic.TimeRange, top bool) (int64, bool) {
	mm := *m
	mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: aheadName, Entity: e.Name, Expr: "COUNT(DISTINCT " + semantic.Ref(e.Name, e.PrimaryKey) + ")"})
	c := semantic.Query{Metrics: []string{aheadName}, Filters: filters}
	if top {
		c.TimeRange = tr
	}
	res, _, ok := a.control(ctx, &mm, c, 1)
	if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 {
		return 0, false
	}
	n, ok := semantic.NumberOf(res.Table.Rows[0][0])
	return int64(n), ok
}

// valuesText is a filter's values as a reading writes them: 'active',
// 'open'.
func valuesText(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("'%v'", v)
	}
	return strings.Join(out, " or ")
}

// endedWords are the statuses of a row held over time (a membership, a
// policy, a subscription) that has ended.
var endedWords = []string{"cancelled", "canceled", "lapsed", "expired", "terminated", "inactive", "churned", "closed", "ended", "suspended", "revoked", "withdrawn"}

// endedHoldings warns where rows are kept for having none of another
// table's rows that are held over time (the table has a date that ends
// them), whose status column holds ended states besides others, with no
// condition on it: "how many guests don't have a loyalty membership"
// counted 1,272 at 1.00, leaving out the guests whose only memberships
// were cancelled or lapsed, who have none now (1,416; found from
// outside). The warning names the other states for the question to keep
// ("… with no 'active' loyalty_memberships").
func endedHoldings(m *semantic.Model, q *semantic.Query) verify.Check {
	heldOverTime := func(e *semantic.Entity) bool {
		return slices.ContainsFunc(e.Columns, func(c semantic.Column) bool { return c.Temporal() && c.TimeRole == semantic.TimeRoleEnd })
	}
	rs, ok := relatedStates(m, q, semantic.OpNone, heldOverTime, func(v string) bool { return slices.Contains(endedWords, semantic.Fold(v)) })
	if !ok {
		return verify.Check{}
	}
	return verify.Check{Name: CheckStatuses, Status: verify.Warn, Detail: fmt.Sprintf("the %s with no %s leave out those whose only %s have the %s %s, which have ended; ask for %s with no %s %s to count them too",
		rs.subject, rs.e.Name, rs.e.Name, fieldWords(rs.column), quoteList(rs.states), rs.subject, quoteList(rs.others), rs.e.Name)}
}
