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
	return a.controlBy(ctx, semantic.Compile, m, q, maxRows)
}

// controlBy is control, compiled by compile.
func (a *Analyst) controlBy(ctx context.Context, compile func(*semantic.Model, semantic.Query, quarry.Dialect) (*semantic.Compiled, error), m *semantic.Model, q semantic.Query, maxRows int) (*Result, *semantic.Compiled, bool) {
	c, err := compile(m, q, a.Conn.Dialect())
	if err != nil {
		return nil, nil, false
	}
	if v := a.Guard.Check(ctx, c.SQL); !v.Allowed {
		return nil, nil, false
	}
	l := a.Limits
	l.MaxRows, l.KeepRows = int64(maxRows), maxRows
	res, err := a.readCached(ctx, c.SQL, l)
	if err != nil || res.Table == nil {
		return nil, nil, false
	}
	return res, c, true
}

// CheckTies is the check that a ranking's limit did not cut a tie.
const CheckTies = "ties"

// maxTied bounds the tied rows a tie check reads and names.
const maxTied = 50

// TieCheck reads every row that ties the last one a ranking's limit kept
// (the same semantic query kept with its ties, semantic.Query.Ties,
// through the guard) and warns when there is one past the limit: "which
// department has the most employees" answered Engineering while Customer
// Support has as many. The check names the control query, which reached
// the database, and the tied rows, which the answer names.
// It returns an empty check when the query is not a ranking or the
// control cannot run. A query kept with its ties passes: it cut none.
func (a *Analyst) TieCheck(ctx context.Context, m *semantic.Model, q *semantic.Query) verify.Check {
	c, _ := a.tieCheck(ctx, m, q, nil)
	return c
}

// tieCheck is TieCheck, with the names of the rows the limit cut that
// tie the last one kept; answer is the result the limit cut (nil when
// unknown: the rows then named are the control's after the limit's).
func (a *Analyst) tieCheck(ctx context.Context, m *semantic.Model, q *semantic.Query, answer *Result) (verify.Check, []string) {
	if q == nil || q.Limit == 0 || q.Limit > 1000 || len(q.Order) == 0 || len(q.Compare) > 0 || a.Conn == nil {
		return verify.Check{}, nil
	}
	if q.Ties {
		return verify.Check{Name: CheckTies, Status: verify.Pass, Detail: fmt.Sprintf("the query keeps every row that ties the last of the first %d (RANK() over its order), so no tie is cut", q.Limit)}, nil
	}
	more := *q
	more.Ties = true
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
	res, c, ok := a.control(ctx, m, more, q.Limit+maxTied)
	if !ok {
		return verify.Check{}, nil
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
		// A dimension the answer shows (a table's name, not its hidden
		// key) names the rows.
		if col.Role == semantic.RoleDimension && (label < 0 || !answerHas(answer, c.Columns[label].Name) && answerHas(answer, col.Name)) {
			label = i
		}
	}
	rows := res.Table.Rows
	if measure < 0 || len(rows) < q.Limit {
		return verify.Check{}, nil
	}
	value := func(r []any) string { return fmt.Sprint(quarry.JSONValue(r[measure])) }
	boundary := value(rows[q.Limit-1])
	past := 0
	for _, r := range rows[q.Limit:] {
		if value(r) == boundary {
			past++
		}
	}
	if past == 0 {
		return verify.Check{Name: CheckTies, Status: verify.Pass, Detail: fmt.Sprintf("no row past the limit of %d ties the last one (control query: %s)", q.Limit, c.SQL)}, nil
	}
	name := func(r []any) string {
		if label < 0 {
			return "another row"
		}
		return fmt.Sprint(quarry.JSONValue(r[label]))
	}
	// The rows that tie at the boundary, less those the answer shows: the
	// engine picked which of them the limit kept, and the control lists
	// them in an order of its own. Without the answer's rows, the
	// control's own first ones stand for them.
	kept := "the last one kept"
	if label >= 0 {
		kept = name(rows[q.Limit-1])
	}
	var tied []string
	keptAt := 1 // how many rows the answer shows at the boundary
	if on := shown(answer, c, label, measure, boundary); len(on) > 0 {
		kept, keptAt = "", 0
		for _, r := range rows {
			n := name(r)
			switch {
			case value(r) != boundary:
			case on[n] > 0:
				on[n]-- // two rows may share a name
				if kept == "" {
					kept = n
				}
				keptAt++
			default:
				tied = append(tied, n)
			}
		}
		if kept == "" {
			kept = "the last one kept"
		}
	} else {
		for _, r := range rows[q.Limit:] {
			if value(r) == boundary {
				tied = append(tied, name(r))
			}
		}
	}
	full := res.Table.Truncated || len(rows) >= q.Limit+maxTied
	who := ""
	switch {
	case label < 0 || len(tied) == 0:
		// Rows with nothing to name them by: how many.
		n := max(len(tied), 1)
		who, label = fmt.Sprintf("%d other rows", n), -1
		if n == 1 {
			who = "another row"
		}
		if full {
			who = fmt.Sprintf("at least %d other rows", n)
		}
	case len(tied) > maxNamed || full:
		shownNames := tied[:min(len(tied), maxNamed)]
		who = strings.Join(shownNames, ", ") + " and more"
	default:
		who = joinNames(tied)
	}
	verb := "tie"
	one := who == "another row" || label >= 0 && len(tied) == 1 && !full
	if one {
		verb = "ties"
	}
	if keptAt > 1 {
		// Several rows shown share the boundary ("the newest 5 customers",
		// 7 of whom signed up on the last day): naming one of them as the
		// row tied would say it alone holds that value.
		verb = "also have"
		if one {
			verb = "also has"
		}
		return verify.Check{Name: CheckTies, Status: verify.Warn, Detail: fmt.Sprintf("%s %s %s on %s, as do %d of the rows shown; the limit of %d left them out (control query: %s)", who, verb, boundary, q.Order[0].Field, keptAt, q.Limit, c.SQL)}, names(label, tied, full, who)
	}
	return verify.Check{Name: CheckTies, Status: verify.Warn, Detail: fmt.Sprintf("%s %s %s at %s on %s; the limit of %d kept only the first (control query: %s)", who, verb, kept, boundary, q.Order[0].Field, q.Limit, c.SQL)}, names(label, tied, full, who)
}

// maxNamed bounds the tied rows a check or an answer names one by one.
const maxNamed = 10

// shown counts the labels of the answer's rows at the boundary value,
// read from its columns of the same names as the control's label and
// measure columns (every row when it does not show the measure): two
// rows may share a name, one above the boundary and one at it. None when
// the answer has no label column.
func shown(answer *Result, c *semantic.Compiled, label, measure int, boundary string) map[string]int {
	out := map[string]int{}
	if answer == nil || answer.Table == nil || label < 0 {
		return out
	}
	col, at := -1, -1
	for i, ac := range answer.Table.Columns {
		switch ac.Name {
		case c.Columns[label].Name:
			col = i
		case c.Columns[measure].Name:
			at = i
		}
	}
	if col < 0 {
		return out
	}
	for _, r := range answer.Table.Rows {
		if at < 0 || fmt.Sprint(quarry.JSONValue(r[at])) == boundary {
			out[fmt.Sprint(quarry.JSONValue(r[col]))]++
		}
	}
	return out
}

// names are the tied rows' names for the answer: at most maxNamed, then
// "more" (more than that tie, or the control stopped reading); where the
// rows have no label, how many there are ("37 other rows").
func names(label int, tied []string, full bool, who string) []string {
	if label < 0 {
		return []string{who}
	}
	if len(tied) > maxNamed || full {
		return append(append([]string(nil), tied[:min(len(tied), maxNamed)]...), "more")
	}
	return tied
}

// joinNames joins names as a sentence does: "a", "a and b", "a, b and c".
func joinNames(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// answerHas reports whether the answer's result has a column of the name.
func answerHas(answer *Result, name string) bool {
	if answer == nil || answer.Table == nil {
		return false
	}
	for _, c := range answer.Table.Columns {
		if c.Name == name {
			return true
		}
	}
	return false
}
