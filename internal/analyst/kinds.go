package analyst

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
	"github.com/quarrydata/quarry/internal/verify"
)

// CheckKinds is the check that a count broken down by who or what it
// belongs to does not silently take in a kind of row that a yes/no column
// sets apart by the table's own name: own goals among a player's goals,
// test orders among a customer's orders.
const CheckKinds = "kind_included"

// KindCheck warns where a query counts the rows of a table grouped by
// something other than a period, and the table has a yes/no column named
// by a kind of its own rows (goals.is_own_goal, orders.is_test_order)
// that neither the query nor the measure reads: "goals by player"
// credited each player with the own goals they put past their keeper
// (found from outside, at confidence 1.00). Such rows may belong to the
// group or not, which quarry cannot tell; a total over every row is left
// alone (an own goal is still a goal of the match). It reads the model
// alone: no query runs. Empty when it does not warn.
func (a *Analyst) KindCheck(m *semantic.Model, q *semantic.Query) verify.Check {
	if m == nil || q == nil {
		return verify.Check{}
	}
	if c := unrealRows(m, q); c.Name != "" {
		return c
	}
	if q.Rows != nil || !groupedByOther(q) {
		return verify.Check{}
	}
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil || mt.Derived != "" || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "COUNT(") {
			continue
		}
		e := m.Entity(mt.Entity)
		if e == nil {
			continue
		}
		for _, c := range e.Columns {
			kind := kindOf(e.Name, c)
			if kind == "" || m.IsRestricted(e.Name, c.Name) || keptOut(m, q, mt, e.Name+"."+c.Name, c.Name) {
				continue
			}
			return verify.Check{Name: CheckKinds, Status: verify.Warn, Detail: fmt.Sprintf("the count takes in every row of %s, %s too (%s.%s), which may not belong to the group they are counted under; ask for %s that are not %s to leave them out",
				e.Name, kind, e.Name, c.Name, fieldWords(e.Name), kind)}
		}
	}
	return verify.Check{}
}

// groupedByOther reports whether q is broken down by something other than
// a period of time.
func groupedByOther(q *semantic.Query) bool {
	for _, d := range q.Dimensions {
		if d.Grain == "" {
			return true
		}
	}
	return false
}

// kindOf is the kind of row a yes/no column of table sets apart by the
// table's own name, in words ("own goals" of goals.is_own_goal), or ""
// where the column is no such flag.
func kindOf(table string, c semantic.Column) string {
	if !semantic.FlagName(c.Name) || !semantic.YesNo(c) {
		return ""
	}
	tw := semantic.NameWords(table)
	if len(tw) == 0 {
		return ""
	}
	noun := tw[len(tw)-1]
	ws := semantic.NameWords(c.Name)
	for i, w := range ws {
		if i == 0 || !sameNoun(w, noun) {
			continue
		}
		var kind []string
		for _, k := range ws[:i] {
			if k != "is" && k != "has" && k != "was" && k != "flag" {
				kind = append(kind, k)
			}
		}
		if len(kind) == 0 {
			return ""
		}
		return strings.Join(append(kind, noun), " ")
	}
	return ""
}

// sameNoun reports whether w is noun, or its singular: goal of goals.
func sameNoun(w, noun string) bool {
	return w == noun || w+"s" == noun || w+"es" == noun || strings.HasSuffix(noun, "ies") && w == strings.TrimSuffix(noun, "ies")+"y"
}

// unrealRows warns where a query measures or lists the rows of a table
// with a yes/no column that marks rows as no real data (is_test,
// is_deleted) or a date that marks them deleted (deleted_at), and
// neither the query nor the measure reads it: the figure takes them in
// (found from outside: trips, students and vehicles counted with their
// test and deleted rows at full confidence). The builtin planner leaves
// them out itself (planner.realRows); a query a model wrote is warned of.
func unrealRows(m *semantic.Model, q *semantic.Query) verify.Check {
	var ents []string
	var mts []*semantic.Metric
	if q.Rows != nil {
		ents = append(ents, q.Rows.Entity)
		mts = append(mts, &semantic.Metric{})
	}
	for _, name := range q.Metrics {
		if mt := m.Metric(name); mt != nil && mt.Derived == "" && mt.Entity != "" {
			ents, mts = append(ents, mt.Entity), append(mts, mt)
		}
	}
	for i, name := range ents {
		e := m.Entity(name)
		if e == nil {
			continue
		}
		var marks, words []string
		for _, c := range e.Columns {
			w := semantic.UnrealFlag(c)
			if w == "" && semantic.DeletionDate(c) {
				w = "deleted"
			}
			if w == "" || m.IsRestricted(e.Name, c.Name) || keptOut(m, q, mts[i], e.Name+"."+c.Name, c.Name) {
				continue
			}
			marks, words = append(marks, e.Name+"."+c.Name), append(words, w)
		}
		if len(marks) == 0 {
			continue
		}
		return verify.Check{Name: CheckKinds, Status: verify.Warn, Detail: fmt.Sprintf("this takes in every row of %s, those marked %s too; ask for %s that are not %s to leave them out",
			e.Name, strings.Join(marks, " or "), fieldWords(e.Name), strings.Join(words, " or "))}
	}
	return verify.Check{}
}

// staticFlag reports whether a yes/no column marks what a row is from the
// start and stays (is_test, is_demo), not a state it may come to later
// (is_deleted): its value today is its value on any earlier day.
func staticFlag(col string) bool {
	for _, w := range semantic.NameWords(col) {
		switch w {
		case "test", "testing", "demo", "sample", "dummy", "fake", "internal", "sandbox", "spam", "junk", "duplicate":
			return true
		}
	}
	return false
}
