package dates

import (
	"fmt"
	"time"
)

// Shift is r moved by whole years (earlier when years is negative): by
// 52 weeks a year for a week, so that the weekdays line up, else by
// calendar years. Its label names the period it is ("June 2025", "Q1
// 2025", "week of 2025-06-30", "2025-06-01 to 2025-06-15"); its grain is
// r's.
func Shift(r Range, years int) (Range, bool) {
	from, err1 := time.Parse(layout, r.From)
	to, err2 := time.Parse(layout, r.To)
	if err1 != nil || err2 != nil || !to.After(from) {
		return Range{}, false
	}
	if r.Grain == "week" {
		from, to = from.AddDate(0, 0, 364*years), to.AddDate(0, 0, 364*years)
	} else {
		from, to = from.AddDate(years, 0, 0), to.AddDate(years, 0, 0)
	}
	last := to.AddDate(0, 0, -1)
	var label string
	switch {
	case r.Grain == "month" && from.Day() == 1 && to.Equal(from.AddDate(0, 1, 0)):
		label = from.Format("January 2006")
	case r.Grain == "quarter" && from.Day() == 1 && to.Equal(from.AddDate(0, 3, 0)):
		label = fmt.Sprintf("Q%d %d", (int(from.Month())-1)/3+1, from.Year())
	case r.Grain == "week" && to.Equal(from.AddDate(0, 0, 7)):
		label = "week of " + from.Format(layout)
	case last.Equal(from):
		label = from.Format(layout)
	default:
		label = from.Format(layout) + " to " + last.Format(layout)
	}
	return Range{From: from.Format(layout), To: to.Format(layout), Label: label, Grain: r.Grain}, true
}

// SameLabel names e, the period r moved to another year, as the same
// period of that year: "the same month last year (June 2025)", "the same
// quarter in 2025 (Q1 2025)", "the same period last year (2025-06-01 to
// 2025-06-15)" for one cut at the as-of day or a span. when is how the
// question names the year ("last year", "the year before", "in 2025").
func SameLabel(r, e Range, when string) string {
	unit := "period"
	switch r.Grain {
	case "day", "week", "month", "quarter":
		if Whole(r) {
			unit = r.Grain
		}
	}
	return "the same " + unit + " " + when + " (" + e.Label + ")"
}

// cutAt ends r with the as-of day when r holds it: a period not over yet
// ends with today, as the planner reads it.
func (p *parser) cutAt(r Range) Range {
	day, next := p.today.Format(layout), p.today.AddDate(0, 0, 1).Format(layout)
	if r.From != "" && r.To != "" && r.From <= day && day < r.To && next < r.To {
		r.To = next
	}
	return r
}

// Shorter reports whether r is one closed period shorter than a year
// that is not a year itself: a day, week, month or quarter, or a span of
// days, weeks or months ("last 30 days"). A year cut at the as-of day
// ("this year", "ytd") is a year.
func Shorter(r Range) bool { return shorter(r) }

func shorter(r Range) bool {
	d := r.Days()
	return r.Grain != "year" && d > 0 && d < 365
}

// BareName reports whether s is one month or quarter named without a
// year ("June", "Q1"), which reads as the latest one that has started.
func BareName(s string) bool {
	toks := tokenize(s)
	if len(toks) != 1 {
		return false
	}
	_, month := months[toks[0].s]
	_, quarter := quarterTok(toks[0].s)
	return month || quarter
}
