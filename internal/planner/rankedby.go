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
	again.readAs(read, fmt.Sprintf("%q read as a list ranked by %s", m[1]+" "+m[2], m[4]))
	return again
}

// averageOfSomeRE finds an average said of some rows: "above the average
// salary of employees who work in Denver".
var averageOfSomeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bthe (?:average|mean)(?: \w+){0,2} (?:of|among|for) (?:\w+ )?(?:who|that|which|with|in|from|whose|at)\b`)
})

// averageOfSome refuses a comparison with an average the question says of
// some rows only, where the plan keeps other conditions too: the filters
// are the compared rows', and the average is of every row (found from
// outside: "a salary above the average salary of employees who work in
// Denver" put Denver on the rows counted, 23 for 82, at full confidence).
func averageOfSome(question string, pl *Plan) *Plan {
	if pl.Query == nil || pl.Kind != KindMetric && pl.Kind != KindRows {
		return nil
	}
	against, others := false, false
	for _, f := range pl.Query.Filters {
		if f.Against != "" {
			against = true
		} else {
			others = true
		}
	}
	if !against || !others || !averageOfSomeRE().MatchString(strings.ToLower(question)) {
		return nil
	}
	return &Plan{Kind: KindUnanswered, Understood: pl.Understood, Reason: "the question compares with an average of some rows only, and quarry takes the average of all of them; ask for that average on its own, then compare with the figure"}
}
