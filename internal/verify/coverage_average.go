package verify

import (
	"slices"
	"strings"
)

// averagedOver reports whether the question asks for an average and the
// query's one metric is a sum divided by the number of rows of entity
// ("average revenue per customer": revenue over every customer), so that
// "per customer" is answered without a row per customer.
func (c *cover) averagedOver(entity string) bool {
	if !averageRE().MatchString(c.text) || len(c.q.Metrics) != 1 || len(c.q.Dimensions) > 0 {
		return false
	}
	mt := c.m.Metric(c.q.Metrics[0])
	if mt == nil || mt.Derived == "" {
		return false
	}
	_, den, ok := strings.Cut(mt.Derived, "/")
	if !ok {
		return false
	}
	num, _, _ := strings.Cut(mt.Derived, "/")
	n := c.m.Metric(strings.Trim(strings.TrimSpace(num), "{}"))
	den = strings.Trim(strings.TrimSpace(den), "{}")
	d := c.m.Metric(den)
	if d == nil {
		return false
	}
	if e := c.m.Entity(entity); e != nil && e.Role != nil {
		// "average claims per adjuster": the adjusters are the staff
		// some claim names as its adjuster, counted once each; every
		// row of staff is not (found from outside: 36.81 for 67.95).
		x := strings.ToUpper(strings.Join(strings.Fields(d.Expr), ""))
		return strings.EqualFold(d.Entity, e.Role.From) && len(d.Filters) == 0 && x == strings.ToUpper("COUNT(DISTINCT"+e.Role.Via()+")")
	}
	if !strings.EqualFold(d.Entity, entity) {
		return false
	}
	for _, f := range d.Filters {
		// "average revenue per order": per completed order, where
		// revenue is of completed orders; no other condition.
		if n == nil || !slices.Contains(n.Filters, f) {
			return false
		}
	}
	e := c.m.Entity(entity)
	x := strings.ToUpper(strings.Join(strings.Fields(d.Expr), ""))
	return e != nil && (x == "COUNT(*)" || x == strings.ToUpper("COUNT("+e.Name+"."+e.PrimaryKey+")"))
}

// averageOfRows reports whether the query's one measure is an average of
// a column of entity's own rows ("average overtime hours per payslip"):
// one per row already, so "per" that row asks for no grouping.
func (c *cover) averageOfRows(entity string) bool {
	if !averageRE().MatchString(c.text) || len(c.q.Metrics) != 1 {
		return false
	}
	mt := c.m.Metric(c.q.Metrics[0])
	return mt != nil && mt.Derived == "" && strings.EqualFold(mt.Entity, entity) && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(mt.Expr)), "AVG(")
}

// averageRE says a question asks for an average.
var averageRE = lazyRE(` (average|avg|mean|on average) `)
