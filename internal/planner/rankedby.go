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
