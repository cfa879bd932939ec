package verify

import (
	"fmt"
	"strings"
)

// aggregateOfColumn reads a measure that aggregates one column as it is
// (SUM, AVG, MIN or MAX of entity.column): its entity and column.
var aggregateOfColumn = lazyRE(`(?i)^\s*(SUM|AVG|MIN|MAX)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*$`)

// selfGrouped: a measure that aggregates a column, grouped by that same
// column, gives each group its own value back ("avg paid amount per paid
// claim" grouped by paid_amount_cents: 2,229 rows, each the average of
// itself; found from outside, at 1.00). No question asks for that.
func (c *cover) selfGrouped() (ok, bad []string) {
	if c.q.Rows != nil {
		return nil, nil
	}
	for _, d := range c.q.Dimensions {
		if d.Grain != "" {
			continue
		}
		fd, isCol := c.m.ColumnField(d.Name)
		if !isCol {
			continue
		}
		for _, name := range c.q.Metrics {
			mt := c.m.Metric(name)
			if mt == nil || mt.Derived != "" {
				continue
			}
			if sm := aggregateOfColumn().FindStringSubmatch(mt.Expr); sm != nil && strings.EqualFold(sm[2], fd.Entity.Name) && strings.EqualFold(sm[3], fd.Column.Name) {
				verb := map[string]string{"SUM": "adds up", "AVG": "averages", "MIN": "takes the least of", "MAX": "takes the most of"}[strings.ToUpper(sm[1])]
				bad = append(bad, fmt.Sprintf("the query groups by %s, the column %s %s: each group's figure is its own value", d.Name, mt.Name, verb))
			}
		}
	}
	return nil, bad
}
