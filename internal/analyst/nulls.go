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

// CheckUnknownValues is the check that a "not X" filter left out no row
// whose value is unknown.
const CheckUnknownValues = "unknown_values"

// nullCountName is the control's measure: the rows of the subject the
// filter's field is NULL on.
const nullCountName = "quarry_unknown_rows"

// NullCheck counts, for each filter that keeps the rows whose yes/no
// flag is 0 ("inactive accounts": is_active = 0), the rows of the
// query's subject that the filter drops because the flag is NULL: an
// account whose flag is unknown is counted neither among the active nor
// among the inactive. ("not X", <> and NOT IN, keeps the rows whose
// value is NULL: the compiler writes it so, since a reader counts an
// account with no region among those not in NA — an outside tester's
// case, 87 accounts where 91 have a region other than NA or none.) The control is the same query, with that filter turned
// into "IS NULL" and a count of the subject's rows as its measure, through
// the guard. Some rows warn, naming how many and the control; none
// passes. It returns an empty check when no filter is a "not" or the
// control cannot run.
func (a *Analyst) NullCheck(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	if q == nil || a.Conn == nil {
		return verify.Check{}
	}
	subject := nullSubject(m, q)
	if subject == nil {
		return verify.Check{}
	}
	var passes []string
	for i, f := range q.Filters {
		if f.OnRelated() || f.Against != "" {
			continue
		}
		// "<>" and NOT IN keep the NULL rows (the compiler's OrNull):
		// only a flag's 0 still leaves an unknown flag out.
		notWhat := flagNo(f) // "unresolved exceptions": resolved = 0
		if notWhat == "" {
			continue
		}
		if grouped(q, f.Field) {
			continue // the NULL group is shown on its own row
		}
		count := "COUNT(*)"
		if subject.PrimaryKey != "" {
			count = "COUNT(DISTINCT " + semantic.Ref(subject.Name, subject.PrimaryKey) + ")"
		}
		mm := *m
		mm.Metrics = append(slices.Clone(m.Metrics), semantic.Metric{Name: nullCountName, Entity: subject.Name, Expr: count})
		ctl := semantic.Query{Metrics: []string{nullCountName}, TimeRange: q.TimeRange, Filters: slices.Clone(q.Filters)}
		ctl.Filters[i] = semantic.Filter{Field: f.Field, Op: semantic.OpNull}
		res, c, ok := a.control(ctx, &mm, ctl, 1)
		if !ok || len(res.Table.Rows) != 1 || len(res.Table.Rows[0]) != 1 {
			continue
		}
		n, ok := quarry.Float(res.Table.Rows[0][0])
		if !ok {
			continue
		}
		field := fieldWords(f.Field)
		if n > 0 {
			what := subject.Name
			if n == 1 {
				what = verify.Singular(subject.Name)
			}
			return verify.Check{Name: CheckUnknownValues, Status: verify.Warn, Detail: fmt.Sprintf("%d %s %s no %s recorded and %s left out of \"not %s\": an unknown %s is neither %s nor not; the figure would differ if %s counted (control query: %s)",
				int64(n), what, hasHave(n), field, isAre(n), notWhat, field, notWhat, itThey(n), c.SQL)}
		}
		passes = append(passes, fmt.Sprintf("every %s counted has a %s recorded, so \"not %s\" leaves none out (control query: %s)", verify.Singular(subject.Name), field, notWhat, c.SQL))
	}
	if len(passes) == 0 {
		return verify.Check{}
	}
	return verify.Check{Name: CheckUnknownValues, Status: verify.Pass, Detail: strings.Join(passes, "; ")}
}

// flagNo is the word of a yes/no column that a filter keeps the rows
// without ("active" for is_active = 0, "resolved" for resolved = 0: the
// planner's "inactive", "not resolved"), or "" for any other filter. A
// row whose flag is NULL is left out of "not active".
func flagNo(f semantic.Filter) string {
	_, col, ok := strings.Cut(f.Field, ".")
	if f.Op != semantic.OpEq || len(f.Values) != 1 || !ok || !semantic.FlagName(col) {
		return ""
	}
	switch strings.ToLower(fmt.Sprint(f.Values[0])) {
	case "0", "false":
	default:
		return ""
	}
	if adj := semantic.FlagAdjective(col); adj != "" {
		return adj
	}
	return fieldWords(f.Field)
}

// nullSubject is the entity whose rows q lists or counts: the listed
// entity, or the entity its first measure counts over.
func nullSubject(m *semantic.Model, q *semantic.Query) *semantic.Entity {
	if q.Rows != nil {
		return m.Entity(q.Rows.Entity)
	}
	if len(q.Metrics) == 0 {
		return nil
	}
	if mt := m.Metric(q.Metrics[0]); mt != nil {
		return m.Entity(mt.Entity)
	}
	return nil
}

// grouped reports whether q groups or lists by field.
func grouped(q *semantic.Query, field string) bool {
	for _, d := range q.Dimensions {
		if strings.EqualFold(d.Name, field) {
			return true
		}
	}
	return false
}

// fieldWords is a field as words: "accounts.region" → "region".
func fieldWords(field string) string {
	if _, c, ok := strings.Cut(field, "."); ok {
		field = c
	}
	return strings.ReplaceAll(field, "_", " ")
}

// valuesWords are a filter's values joined with "or".
func valuesWords(vs []any) string {
	js := make([]any, len(vs))
	for i, v := range vs {
		js[i] = quarry.JSONValue(v)
	}
	// A value in several spellings ('NA', 'na') is named once.
	var parts []string
	for _, g := range semantic.SpellingsOf(js) {
		parts = append(parts, g.Value)
	}
	return strings.Join(parts, " or ")
}

func hasHave(n float64) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func isAre(n float64) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itThey(n float64) string {
	if n == 1 {
		return "it were"
	}
	return "they were"
}
