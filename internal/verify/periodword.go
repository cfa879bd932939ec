package verify

import (
	"regexp"
	"strings"
)

// periodPhraseRE finds a word of a length of time in a phrase that
// says when or how often: "last week", "per day", "7 days", "day of
// the week", "busiest day".
var periodPhraseRE = lazyRE(`(?i)\b(?:(last|this|next|previous|past|prior|same|that|per|each|every|a|an|by|busiest|quietest|slowest|\d+)\s+)?(days?|weeks?|months?|quarters?|years?|weekends?|weekdays?)\b(\s+of\s+(?:the\s+)?week)?`)

// timeWord reports whether v, a value of some column spelt like a
// length of time ('day' and 'week' of a pass's type), is written in the
// question only in phrases that say when or how often ("trips last
// week", "average trips per day", "by day of week"), and the query has
// a period or a grouping by time to read them: no value asked for
// (found from outside, on a bike share: every question with "last
// week" or "per day" refused because day passes and week passes exist).
// where is the value's column, entity.column: "a day pass" is the value.
func (c *cover) timeWord(v, where string) bool {
	lv := strings.ToLower(strings.TrimSpace(v))
	switch strings.TrimSuffix(lv, "s") {
	case "day", "week", "month", "quarter", "year", "weekend", "weekday":
	default:
		return false
	}
	if c.q.TimeRange == nil && len(c.q.Compare) == 0 && !c.timeGrouped() {
		return false
	}
	found := false
	for _, m := range periodPhraseRE().FindAllStringSubmatchIndex(c.raw, -1) {
		word := strings.ToLower(c.raw[m[4]:m[5]])
		if m[6] >= 0 && strings.TrimSuffix(lv, "s") == "week" {
			found = true // "day of the week"
			continue
		}
		if strings.TrimSuffix(word, "s") != strings.TrimSuffix(lv, "s") {
			continue
		}
		if m[2] < 0 && m[6] < 0 {
			return false // "day passes": the word alone, a value
		}
		found = true
	}
	if !found {
		return false
	}
	// "a day pass": the value, said of its own table's rows.
	ent, _, _ := strings.Cut(where, ".")
	ws := strings.FieldsFunc(strings.ToLower(ent), func(r rune) bool { return r == '_' || r == ' ' })
	if len(ws) == 0 {
		return true
	}
	noun := strings.TrimSuffix(strings.TrimSuffix(ws[len(ws)-1], "s"), "e")
	return !regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(lv) + `s?\s+` + regexp.QuoteMeta(noun)).MatchString(c.raw)
}

// timeGrouped reports whether the query groups by a grain of time.
func (c *cover) timeGrouped() bool {
	for _, d := range c.q.Dimensions {
		if d.Grain != "" {
			return true
		}
	}
	return false
}
