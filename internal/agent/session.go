package agent

import (
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/planner/dates"
)

// MaxHistory is how many earlier turns of a session a question carries.
const MaxHistory = 5

// History turns a session's runs (in any order) into its turns, oldest
// first, at most MaxHistory: the question, the SQL and the answer's first
// line. Runs that are not questions are skipped.
func History(runs []event.RunState) []Turn {
	runs = slices.Clone(runs)
	slices.SortStableFunc(runs, func(a, b event.RunState) int { return a.StartedAt.Compare(b.StartedAt) })
	var out []Turn
	for _, r := range runs {
		if r.Kind != "ask" || r.Question == "" {
			continue
		}
		t := Turn{Question: r.Question, SQL: r.SQL, Status: r.Status}
		if line, _, _ := strings.Cut(strings.TrimSpace(r.Answer), "\n"); line != "" {
			t.Answer = short(line, 300)
		}
		out = append(out, t)
	}
	if len(out) > MaxHistory {
		out = out[len(out)-MaxHistory:]
	}
	return out
}

// followPrefixes start a question that only makes sense after the last one.
var followPrefixes = []string{"and ", "what about ", "how about ", "now ", "only ", "just ", "but ", "by ", "per ", "for ", "in ", "over "}

// FollowUp makes a follow-up question whole for the builtin planner, which
// reads one question at a time: "and by month?" after "revenue last year"
// becomes "revenue last year by month". A question that stands on its own
// (or has no earlier turn) is returned as it is, and so is one after a
// turn that was not answered: "and by country?" after a refused "delete
// everything" is not "delete everything by country".
func FollowUp(history []Turn, question string) string {
	if len(history) == 0 {
		return question
	}
	if st := history[len(history)-1].Status; st != "" && st != event.StatusSucceeded {
		return question
	}
	q := strings.TrimSpace(question)
	lower := strings.ToLower(q)
	for _, p := range followPrefixes {
		if strings.HasPrefix(lower, p) || lower == strings.TrimSpace(p) {
			rest := q
			switch strings.TrimSpace(p) {
			case "and", "what about", "how about", "now", "but":
				rest = strings.TrimSpace(q[len(p)-1:])
			}
			prev := strings.TrimRight(strings.TrimSpace(history[len(history)-1].Question), "?.! ")
			rest = strings.TrimRight(rest, "?.! ")
			return withoutPeriod(prev, rest) + " " + rest
		}
	}
	return question
}

// withoutPeriod is prev without its one period where rest names one of
// its own: "and in 2024?" after "revenue by restaurant in 2025" asks for
// 2024 instead (found from outside: "… in 2025 in 2024", refused).
func withoutPeriod(prev, rest string) string {
	// Only where the phrases are, which no day moves.
	day := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if len(dates.FindAll(rest, day)) == 0 {
		return prev
	}
	ps := dates.FindAll(prev, day)
	if len(ps) != 1 {
		return prev
	}
	before := strings.TrimSpace(prev[:ps[0].Start])
	for _, w := range []string{" in", " during", " for", " over"} {
		before = strings.TrimSuffix(before, w) // "revenue in 2025": the "in" goes with it
	}
	return strings.Join(strings.Fields(before+" "+prev[ps[0].End:]), " ")
}
