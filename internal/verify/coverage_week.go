package verify

import (
	"strings"

	"github.com/quarrydata/quarry/internal/semantic"
)

// The days of the week a question keeps or splits: "weekend revenue", "on
// weekdays", "weekend vs weekday", "on Mondays" (Coverage).

// asksPartOfWeek reports whether the question names weekends, or
// weekdays as days kept ("on weekdays", "weekday revenue", "during the
// week"), outside a name of the knowledge ("Weekend Bag").
func (c *cover) asksPartOfWeek() bool {
	for _, w := range []string{"weekend", "weekends"} {
		if c.has(w) && !c.inName(w) {
			return true
		}
	}
	for _, w := range []string{"on weekdays", "on a weekday", "on weekday", "during the week", "during weekdays", "weekdays only"} {
		if c.has(w) {
			return true
		}
	}
	return strings.HasPrefix(c.text, " weekday ") || strings.HasPrefix(c.text, " weekdays ")
}

// asksDays are the days the question names in the plural, each one every
// such day ("on Mondays"), outside a name of the knowledge.
func (c *cover) asksDays() []string {
	var out []string
	for _, d := range semantic.DayNames {
		if w := strings.ToLower(d) + "s"; c.has(w) && !c.inName(w) {
			out = append(out, d)
		}
	}
	return out
}

// weekMissing says what the query leaves out of the days the question
// keeps or splits: "weekend revenue" answered by all revenue is a wrong
// number, not a rounder one. Empty when nothing is left out.
func (c *cover) weekMissing() string {
	has := func(g semantic.Grain) bool {
		for _, d := range c.q.Dimensions {
			if d.Grain == g {
				return true
			}
		}
		for _, f := range c.q.Filters {
			if fg, ok := c.m.CycleGrain(f); ok && fg == g {
				return true
			}
		}
		return false
	}
	if c.asksPartOfWeek() && !has(semantic.GrainPartOfWeek) {
		return "the question names weekends or weekdays, but the query neither keeps nor splits them"
	}
	if days := c.asksDays(); len(days) > 0 && !has(semantic.GrainDayOfWeek) {
		return "the question names " + strings.Join(days, " and ") + "s, but the query does not keep those days"
	}
	return ""
}

// dayOfWeekWord reports whether the question's "weekday" is the day of the
// week as a grouping ("by weekday", "which weekday") rather than the days
// Monday to Friday ("on weekdays", "weekend vs weekday").
func (c *cover) dayOfWeekWord() bool {
	for _, pre := range []string{"by", "per", "each", "every", "which", "what", "busiest", "quietest", "best", "worst"} {
		if c.has(pre+" weekday") || c.has(pre+" weekdays") {
			return true
		}
	}
	return c.has("weekday") && !c.asksPartOfWeek()
}
