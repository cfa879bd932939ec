package verify

import "strings"

// againstRE finds a comparison with an average, a maximum or a minimum:
// "below the average weight", "above average", "more than the average".
var againstRE = lazyRE(`\b(above|below|over|under|more than|less than|greater than|smaller than|higher than|lower than|bigger than|larger than|fewer than|cheaper than|older than|younger than)( the)? (average|mean|maximum|minimum)\b`)

// against: "cars whose weight is below the average" keeps the rows whose
// column is below the column's own average; a query without a filter
// that compares with an aggregate (semantic Filter.Against) lists them
// all.
func (c *cover) against() (ok, bad []string) {
	m := againstRE().FindStringSubmatch(c.text)
	if m == nil {
		return nil, nil
	}
	for _, f := range c.q.Filters {
		if f.Against != "" {
			return []string{"a comparison with the " + f.Against}, nil
		}
	}
	for _, name := range c.q.Metrics {
		// "customers who spent more than the average": a condition on a
		// measure, which the query may hold as a having filter on it.
		for _, f := range c.q.Filters {
			if f.Field == name {
				return []string{"a condition on " + name}, nil
			}
		}
	}
	return nil, []string{"the question compares with the " + strings.TrimSpace(m[3]) + " (\"" + strings.TrimSpace(m[0]) + "\"), which the query does not"}
}
