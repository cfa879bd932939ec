package analyst

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// zeroGroupsControl decides a query filtered on a count that admits zero
// ("courses with fewer than 2 sections"), which the compiler counts from
// the counted rows and so leaves out the groups with none. When the query
// has no other condition, a control query asks the database whether any
// such group exists: when none does, the result is complete and the
// returned text (the control SQL and what it found) passes the
// zero_groups check. Otherwise it returns the refusal: the groups exist,
// or quarry cannot tell. A control query that was sent is recorded, with
// what it found, as the failed check (em) before the refusal.
func (a *Analyst) zeroGroupsControl(ctx context.Context, em *Emitter, m *semantic.Model, q *semantic.Query, zs []verify.ZeroGroup) (control string, refusal error) {
	var why []string
	for _, z := range zs {
		why = append(why, z.Why)
	}
	refuse := func(extra string) error {
		return quarry.Errorf(quarry.KindUnanswered, "quarry cannot answer this correctly yet: %s%s; ask for those with at least one", strings.Join(why, "; "), extra)
	}
	// A ranking from the lowest grouped by a dimension whose values the
	// knowledge lists: the same query without its limit shows whether
	// every value has something to count in the period and filters.
	// settle answers with a control query's finding c, or refuses,
	// naming the groups it found with nothing to count.
	settle := func(c string, missing []string) (string, error) {
		if len(missing) == 0 {
			return c, nil
		}
		check := event.Check{Name: verify.CheckZeroGroups, Status: verify.Fail, Detail: strings.Join(why, "; ") + " (" + c + ")"}
		em.Emit(ctx, &event.ChecksRanData{Checks: []event.Check{check}, Confidence: verify.FailFactor})
		names := strings.Join(missing[:min(len(missing), 5)], ", ")
		if len(missing) > 5 {
			names += ", …"
		}
		return "", refuse(fmt.Sprintf(" (%d have none: %s)", len(missing), names))
	}
	if c, missing, ok := a.knownValuesControl(ctx, m, q, zs); ok {
		return settle(c, missing)
	}
	// A grouping by periods: the periods a range (or the data) spans are
	// known, and the same query without its order, limit and conditions
	// on measures shows which have something to count.
	if c, missing, ok := a.periodsControl(ctx, m, q, zs); ok {
		return settle(c, missing)
	}
	if c, ok := a.everyRowControl(ctx, m, q, zs); ok {
		return c, nil
	}
	// Only the count's own condition — a filter on it, or a ranking from
	// the lowest: with a period or other filters, a group can have rows
	// and still none that count.
	var metric string
	switch conds := verify.Conditions(q); {
	case len(conds) == 1 && len(zs) == 1:
		metric = conds[0].Field
	case len(conds) == 0 && len(zs) == 1 && len(q.Order) > 0:
		metric = q.Order[0].Field
	}
	if metric == "" || q.TimeRange != nil || len(q.Compare) > 0 {
		return "", refuse("")
	}
	if mt := m.Metric(metric); mt == nil || len(mt.Filters) > 0 {
		return "", refuse("")
	}
	z := zs[0]
	sql, err := semantic.EmptyGroupsSQL(m, z.Group, z.Counted, a.Conn.Dialect())
	if err != nil {
		return "", refuse("")
	}
	if v := a.Guard.Check(ctx, sql); !v.Allowed {
		return "", refuse("")
	}
	n := a.countOf(ctx, sql)
	if n == 0 {
		return fmt.Sprintf("every %s has at least one %s (control query: %s → 0), so none is missing", z.Group, z.Counted, sql), nil
	}
	found := "failed"
	extra := ""
	if n > 0 {
		found = fmt.Sprint(n)
		extra = fmt.Sprintf(" (%d %s have no %s)", n, z.Group, z.Counted)
	}
	check := event.Check{Name: verify.CheckZeroGroups, Status: verify.Fail, Detail: strings.Join(why, "; ") + " (control query: " + sql + " → " + found + ")"}
	em.Emit(ctx, &event.ChecksRanData{Checks: []event.Check{check}, Confidence: verify.FailFactor})
	return "", refuse(extra)
}

// countOf runs a guarded control query that returns one count, and
// returns it, or -1 when it fails or returns something else.
func (a *Analyst) countOf(ctx context.Context, sql string) int64 {
	l := a.Limits
	l.MaxRows, l.KeepRows = 1, 1
	res, err := a.readCached(ctx, sql, l)
	if err != nil || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 {
		return -1
	}
	switch x := res.Table.Rows[0][0].(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return -1
}

// knownValuesControl runs a ranking from the lowest (or a whole list
// lowest first) again without its order and limit and compares its groups with the values the knowledge
// lists for the grouping: the values missing from it have nothing to
// count, and belong at the bottom. It reports ok = false when it cannot
// tell (not a ranking, no listed values, the control cannot run).
func (a *Analyst) knownValuesControl(ctx context.Context, m *semantic.Model, q *semantic.Query, zs []verify.ZeroGroup) (control string, missing []string, ok bool) {
	if len(zs) != 1 || len(q.Order) == 0 || q.Order[0].Desc || len(q.Dimensions) != 1 || len(q.Compare) > 0 {
		return "", nil, false
	}
	dim := zs[0].Dimension
	known := verify.KnownValues(m, dim)
	if len(known) == 0 || len(known) > 500 {
		return "", nil, false
	}
	all := *q
	all.Order, all.Limit, all.Hidden = nil, 0, nil
	res, c, ok := a.control(ctx, m, all, 10000)
	if !ok || res.Table.Truncated {
		return "", nil, false
	}
	col := -1
	for i, oc := range c.Columns {
		if oc.Role == "dimension" {
			col = i
			break
		}
	}
	if col < 0 {
		return "", nil, false
	}
	seen := map[string]bool{}
	for _, r := range res.Table.Rows {
		if r[col] != nil {
			seen[strings.ToLower(fmt.Sprint(r[col]))] = true
		}
	}
	for _, v := range known {
		if !seen[strings.ToLower(v)] {
			missing = append(missing, v)
		}
	}
	return fmt.Sprintf("%d of %d known values of %s have something to count (control query: %s)", len(seen), len(known), dim, c.SQL), missing, true
}

// ControlZeroGroups runs the zero-groups control for a semantic query
// that any planner wrote (a model's query_metric, the fault benchmark's):
// the text that passes the zero_groups check when the control shows no
// group is missing, or "" (the check then fails, as the checks say). The
// control's own refusal is not recorded: the answer's checks say it.
func (a *Analyst) ControlZeroGroups(ctx context.Context, m *semantic.Model, q *semantic.Query) string {
	zs := verify.ZeroGroupsMissing(m, q)
	if len(zs) == 0 {
		return ""
	}
	quiet := NewEmitter(event.NewRecorder("control", a.now, event.SinkFunc(func(context.Context, ...event.Event) error { return nil })))
	c, err := a.zeroGroupsControl(ctx, quiet, m, q, zs)
	if err != nil {
		return ""
	}
	return c
}

// everyRowControl settles a ranking from the lowest of a table's rows by
// a count of other rows over a period ("which location had the fewest
// check-ins in Q2 2025"): the same query without its order and limit
// has a group for each row of the table that has something to count; if
// it has as many groups as the table has rows, none is missing from the
// bottom (found from outside: refused, though every location had
// check-ins). ok is false where the query filters the ranked table's own
// rows, a group is missing, or the control cannot run.
func (a *Analyst) everyRowControl(ctx context.Context, m *semantic.Model, q *semantic.Query, zs []verify.ZeroGroup) (string, bool) {
	if len(zs) != 1 || len(q.Order) == 0 || q.Order[0].Desc || len(q.Compare) > 0 {
		return "", false
	}
	e := m.Entity(zs[0].Group)
	if e == nil || e.PrimaryKey == "" {
		return "", false
	}
	for _, f := range verify.Conditions(q) {
		if ent, _, ok := strings.Cut(f.Field, "."); !ok || strings.EqualFold(ent, e.Name) {
			return "", false // a condition on a measure, or on the ranked rows
		}
	}
	all := *q
	all.Order, all.Limit = nil, 0
	res, c, ok := a.control(ctx, m, all, 10000)
	if !ok || res.Table.Truncated {
		return "", false
	}
	key := e.Name + "." + e.PrimaryKey
	rows, ok := a.datedFrom(ctx, m, key, "COUNT("+key+")", "")
	if !ok || float64(len(res.Table.Rows)) < rows {
		return "", false
	}
	return fmt.Sprintf("every one of the %d %s has something to count (control query: %s → %d groups)", int64(rows), e.Name, c.SQL, len(res.Table.Rows)), true
}
