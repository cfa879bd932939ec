package verify

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// dateAggRE is an aggregate of one column: COUNT(DISTINCT t.c), MAX(t.c)
// or MIN(t.c).
var dateAggRE = lazyRE(`(?i)^\s*(count\s*\(\s*distinct|max\s*\(|min\s*\()\s*([\w]+)\.([\w]+)\s*\)\s*$`)

// differentRE asks for the different values of a column.
var differentRE = lazyRE(`\b(distinct|different|unique|dates|days)\b`)

// DateAggregates says why a query's aggregate of a date column does not
// answer question, or "": the number of different dates of a column is
// not a number of events ("how many hires in 2024": two people hired on
// one day are two hires, one date), unless the question asks for the
// different dates; and the latest or earliest date in each period of that
// date is only the period's last or first day that has one ("which month
// had the most hires").
func DateAggregates(question string, m *semantic.Model, q *semantic.Query) string {
	if m == nil || q == nil {
		return ""
	}
	grained := false
	for _, d := range q.Dimensions {
		grained = grained || d.Grain != ""
	}
	text := strings.ToLower(question)
	for _, name := range q.Metrics {
		mt := m.Metric(name)
		if mt == nil {
			continue
		}
		g := dateAggRE().FindStringSubmatch(mt.Expr)
		if g == nil {
			continue
		}
		e := m.Entity(g[2])
		if e == nil {
			continue
		}
		col := e.Column(g[3])
		if col == nil || !col.Temporal() {
			continue
		}
		ref := e.Name + "." + col.Name
		switch agg := strings.ToLower(strings.Fields(g[1])[0]); {
		case strings.HasPrefix(agg, "count") && !differentRE().MatchString(text):
			return fmt.Sprintf("quarry read this as the number of different dates of %s, which is not a number of %s: two on one day are one date; ask for %s by what happened, e.g. \"how many %s were %s …\"",
				ref, e.Name, e.Name, e.Name, strings.TrimSuffix(strings.TrimSuffix(col.Name, "_on"), "_at"))
		case !strings.HasPrefix(agg, "count") && grained:
			return fmt.Sprintf("quarry read this as the %s %s in each period, which is only the period's %s day that has one, not a number of %s; ask for %s by period, e.g. \"%s %s by month\"",
				map[bool]string{true: "latest", false: "earliest"}[strings.HasPrefix(agg, "max")], ref,
				map[bool]string{true: "last", false: "first"}[strings.HasPrefix(agg, "max")], e.Name, e.Name, e.Name, strings.TrimSuffix(strings.TrimSuffix(col.Name, "_on"), "_at"))
		}
	}
	return ""
}
