package planner

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
)

// rankedByRE reads "top 5 products by unit price": the end, how many, the
// rows and what they are ranked by.
var rankedByRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:show|list|give me|what are|which are)\s+)?(?:the\s+)?(top|bottom)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(.+?)\s+by\s+(.+?)[?.!]*$`)
})

// rankedByColumn replans a ranking refused for naming no measure, "top 5
// products by unit price", as the list it asks for: "5 products with the
// highest unit price" (found from outside: "top 5 employees by salary"
// refused, while "5 employees with the highest salary" was answered). Only
// a list of rows is taken: a measure would have been read before.
func (p *Planner) rankedByColumn(question string, asOf time.Time, pl *Plan) *Plan {
	if !pl.rankUnknown {
		return nil
	}
	m := rankedByRE().FindStringSubmatch(strings.ToLower(strings.TrimSpace(question)))
	if m == nil {
		return nil
	}
	end := "highest"
	if m[1] == "bottom" {
		end = "lowest"
	}
	read := m[2] + " " + m[3] + " with the " + end + " " + m[4]
	again := p.planWhole(read, asOf)
	if again.Kind != KindRows || again.Query == nil || len(again.Query.Order) == 0 {
		return nil
	}
	if p.othersListed(again) {
		// "top 5 cities by total cents of orders": the cities ranked by
		// what their orders add up to, not the cities of the 5 largest
		// orders (found from outside, at 1.00). A total said so is
		// summed; anything else is asked.
		if strings.HasPrefix(m[4], "total ") || strings.HasPrefix(m[4], "sum of ") {
			sum := m[1] + " " + m[2] + " " + m[3] + " by sum of " + strings.TrimPrefix(m[4], "sum of ")
			if got := p.planWhole(sum, asOf); got.Kind == KindMetric && got.Query != nil && len(got.Query.Dimensions) > 0 {
				got.readAs(sum, fmt.Sprintf("%q read as %q", m[4], "sum of "+strings.TrimPrefix(m[4], "sum of ")))
				return got
			}
		}
		return nil
	}
	again.readAs(read, fmt.Sprintf("%q read as a list ranked by %s", m[1]+" "+m[2], m[4]))
	return again
}

// othersListed reports whether a ranked list of rows shows only columns
// of other tables than the rows it ranks, or categories of their own
// (a column of a few known values): "5 cities with the highest order
// total" lists the cities of the 5 largest orders, and "top 2
// currencies by order total" their currencies, which is not what
// ranking cities or currencies asks (found from outside: the cities of
// single orders given as the top cities).
func (p *Planner) othersListed(pl *Plan) bool {
	q := pl.Query
	if q == nil || q.Rows == nil || q.Limit <= 0 || len(q.Order) == 0 || len(q.Rows.Columns) == 0 {
		return false
	}
	m := pl.over(p.m)
	for _, c := range q.Rows.Columns {
		f, ok := m.ColumnField(c)
		if !ok {
			f, ok = m.ColumnField(q.Rows.Entity + "." + c) // named in the rows' own table
		}
		if !ok {
			return false
		}
		if strings.EqualFold(f.Entity.Name, q.Rows.Entity) && (len(f.Column.Values) == 0 || f.Column.Name == f.Entity.PrimaryKey || f.Column.Name == f.Entity.Label) {
			return false // the rows themselves, or what they hold
		}
	}
	return true
}
