package semantic

import (
	"strings"

	"github.com/quarrydata/quarry/internal/quarry"
)

// rankColumn is the column that numbers the rows of a ranking kept with
// their ties; it never leaves the query.
const rankColumn = "quarry_rank"

// checkTies settles a Ties query: without a limit or an order there is
// nothing to keep ties of, and Ties says nothing (a control query that
// drops the limit keeps the flag harmlessly); with compared periods or a
// list of distinct rows it cannot be written.
func checkTies(q *Query) error {
	if !q.Ties {
		return nil
	}
	if q.Limit <= 0 || len(q.Order) == 0 {
		q.Ties = false
		return nil
	}
	if len(q.Compare) > 0 {
		return quarry.Errorf(quarry.KindInput, "ties cannot be used with compared periods")
	}
	if q.Rows != nil && q.Rows.Distinct {
		return quarry.Errorf(quarry.KindInput, "ties cannot be used with a list of distinct rows")
	}
	return nil
}

// withTies cuts a sorted query (sql, which returns cols and may end with
// its own ORDER BY) to its first q.Limit rows and every row that ties the
// last of them on the whole sort key: RANK() over the same order, kept up
// to the limit, in every dialect the compiler knows (all have window
// functions). orderTerms are the sort terms written over the columns of
// sql's result ("orders DESC"); outer is the ORDER BY clause of the
// result, written the same way.
func (c *compiler) withTies(q Query, sql string, cols []OutColumn, orderTerms []string, outer string) string {
	sel := make([]string, len(cols))
	for i, col := range cols {
		sel[i] = c.d.ident(col.Name)
	}
	list := strings.Join(sel, ", ")
	rank := c.d.ident(rankColumn)
	inner := "SELECT " + list + ", RANK() OVER (ORDER BY " + strings.Join(orderTerms, ", ") + ") AS " + rank +
		"\nFROM (\n" + indent(sql, "  ") + "\n) AS " + c.d.ident("r")
	return "SELECT " + list + "\nFROM (\n" + indent(inner, "  ") + "\n) AS " + c.d.ident("q") +
		"\nWHERE " + rank + " <= " + itoa(q.Limit) + outer
}

// tieBreak is what a ranking kept with its ties is sorted by after its
// order, so that tied rows come back in one order every time: its
// dimensions, in the order of the query ("" when it is not kept with
// ties).
func (c *compiler) tieBreak(q Query, cols []OutColumn) string {
	if !q.Ties {
		return ""
	}
	var b strings.Builder
	for _, col := range cols {
		if col.Role == RoleDimension || col.Role == RolePeriod {
			b.WriteString(", " + c.d.ident(col.Name))
		}
	}
	return b.String()
}
