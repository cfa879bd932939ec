package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
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

// parentStateForOwnDate: a state word the question says of the rows it
// counts or lists, read as a value of another table's status where those
// rows have a date named by that word ("shipments delivered last month"
// read as the shipments whose order's status is 'delivered', where
// shipments have delivered_at: 130 for 139, and "shipments that haven't
// been delivered" 419 for 204; found from outside, at 1.00). The rows'
// own date says it; the other table's status says something else.
func (c *cover) parentStateForOwnDate() (ok, bad []string) {
	var subject string
	switch {
	case c.q.Rows != nil:
		subject = c.q.Rows.Entity
	case len(c.q.Metrics) == 1:
		if mt := c.m.Metric(c.q.Metrics[0]); mt != nil && mt.Derived == "" {
			subject = mt.Entity
		}
	}
	e := c.m.Entity(subject)
	if e == nil {
		return nil, nil
	}
	for _, f := range c.q.Filters {
		fd, isCol := c.m.ColumnField(f.Field)
		if !isCol || strings.EqualFold(fd.Entity.Name, e.Name) || f.Op != semantic.OpEq && f.Op != semantic.OpNe && f.Op != semantic.OpIn && f.Op != semantic.OpNotIn ||
			c.has(strings.ReplaceAll(strings.ToLower(fd.Column.Name), "_", " ")) {
			continue // "… of orders with status delivered": the column named
		}
		for _, v := range f.Values {
			s, isText := v.(string)
			word := strings.ToLower(strings.TrimSpace(s))
			if !isText || len(word) < 4 || strings.ContainsAny(word, " _") || !c.has(word) {
				continue
			}
			for _, col := range e.Columns {
				if col.Temporal() && !c.m.IsRestricted(e.Name, col.Name) && slices.Contains(semantic.NameWords(col.Name), word) {
					bad = append(bad, fmt.Sprintf("%q is said of %s, which have a date of it (%s.%s), but the query reads %s of %s", word, e.Name, e.Name, col.Name, f.Field, fd.Entity.Name))
				}
			}
		}
	}
	return nil, bad
}
