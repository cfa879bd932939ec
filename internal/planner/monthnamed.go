package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/planner/dates"
)

// currentMonthNamed asks which is meant where the question names a month
// with no year and that month is the one of the as-of day, not over:
// "customers who haven't ordered since December", asked on December 5th,
// read as since December 1st, five days, counted 4,021 lapsed customers
// where since last December there were 2 (found from outside, at 0.85).
// This December so far and last December give different answers, and the
// words do not say which; the options name each with its year. Nil where
// no such month is named.
func currentMonthNamed(question string, rngs []dates.Range, asOf time.Time) *Plan {
	first := time.Date(asOf.Year(), asOf.Month(), 1, 0, 0, 0, 0, time.UTC)
	if !asOf.AddDate(0, 0, 1).Before(first.AddDate(0, 1, 0)) {
		return nil // today ends the month: it is whole
	}
	for _, r := range rngs {
		if r.From != first.Format("2006-01-02") || r.Start < 0 || r.End > len(question) || r.Start >= r.End {
			continue
		}
		span := question[r.Start:r.End]
		if strings.ContainsAny(span, "0123456789") {
			continue // "December 2026", "Dec 5"
		}
		// The month's own word in the span ("since December"), by its
		// place in the question.
		at, word := -1, ""
		for i := r.Start; i < r.End; {
			j := i
			for j < r.End && question[j] != ' ' {
				j++
			}
			if w := strings.Trim(strings.ToLower(question[i:j]), ".,"); dates.IsMonth(w) {
				at, word = i, question[i:j]
			}
			i = j + 1
		}
		if at < 0 {
			continue // "this month"
		}
		this, last := first.Format("January 2006"), first.AddDate(-1, 0, 0).Format("January 2006")
		with := func(m string) string { return question[:at] + m + question[at+len(word):] }
		return &Plan{Kind: KindClarify,
			Question:   fmt.Sprintf("Which %s: %s, not over (its days to %s), or %s?", first.Format("January"), this, asOf.Format("2006-01-02"), last),
			Options:    []string{with(this), with(last)},
			Understood: []string{fmt.Sprintf("%q names the month of the as-of day, %s, which is not over", span, this)},
		}
	}
	return nil
}
