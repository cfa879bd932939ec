package semantic

import (
	"github.com/quarrydata/quarry/internal/quarry"
)

// compileCountGroups compiles q without its CountGroups and counts the
// rows it returns: SELECT COUNT(*) AS name FROM (the grouped query) AS q.
// The grouped query keeps its filters on metrics (HAVING); it is not
// sorted, as the count does not depend on its order.
func (c *compiler) compileCountGroups(q Query) (*Compiled, error) {
	name := q.CountGroups
	switch {
	case len(q.Dimensions) == 0:
		return nil, quarry.Errorf(quarry.KindInput, "counting groups needs something to group by")
	case len(q.Compare) > 0 || q.Share || q.Limit > 0 || q.Ties || len(q.Hidden) > 0 || q.Percentile != 0 || q.Rows != nil:
		return nil, quarry.Errorf(quarry.KindUnsupported, "quarry counts the groups of a plain grouped query only: no compared periods, shares, limits, hidden columns, percentiles or lists")
	}
	inner := q
	inner.CountGroups, inner.Order = "", nil
	c.unordered = true
	out, err := c.compileMetrics(inner)
	if err != nil {
		return nil, err
	}
	out.SQL = "SELECT COUNT(*) AS " + c.d.ident(name) + "\nFROM (\n" + indent(out.SQL, "  ") + "\n) AS " + c.d.ident("q")
	out.Columns = []OutColumn{{Name: name, Role: RoleMetric, Format: "integer"}}
	return out, nil
}
