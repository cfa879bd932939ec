package verify

import (
	"fmt"
	"strconv"
	"strings"
)

// percentileRE finds where a question asks for a median or a percentile:
// "median", "the middle value", "p90", "90th percentile".
var percentileRE = lazyRE(` (medians?|middle values?|p([0-9]{1,2})|([0-9]{1,2})(?:st|nd|rd|th)? (?:percentile|pct)) `)

// percentile holds a query to the median or percentile the question
// asks for: a median asked for and an average (or a total) computed is
// a different figure under a near name, and so is a median the question
// does not ask for.
func (c *cover) percentile() (ok, bad []string) {
	m := percentileRE().FindStringSubmatch(c.text)
	asked, said := 0, ""
	if m != nil {
		said = strings.TrimSpace(m[1])
		asked = 50
		for _, g := range m[2:] {
			if g != "" {
				asked, _ = strconv.Atoi(g)
			}
		}
	}
	switch {
	case asked == 0 && c.q.Percentile == 0:
		return nil, nil
	case asked == 0:
		return nil, []string{fmt.Sprintf("the query takes the %s, which the question does not ask for", percentileName(c.q.Percentile))}
	case c.q.Rows != nil || c.q.Percentile == 0:
		return nil, []string{fmt.Sprintf("the question asks for the %s (%s), and the query computes the figure itself, not its %s", percentileName(asked), said, percentileName(asked))}
	case c.q.Percentile != asked:
		return nil, []string{fmt.Sprintf("the question asks for the %s (%s), and the query takes the %s", percentileName(asked), said, percentileName(c.q.Percentile))}
	}
	return []string{said}, nil
}

func percentileName(p int) string {
	if p == 50 {
		return "median"
	}
	suf := "th"
	switch {
	case p%100 >= 11 && p%100 <= 13:
	case p%10 == 1:
		suf = "st"
	case p%10 == 2:
		suf = "nd"
	case p%10 == 3:
		suf = "rd"
	}
	return strconv.Itoa(p) + suf + " percentile"
}
