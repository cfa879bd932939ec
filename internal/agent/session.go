package agent

import (
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
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
			return prev + " " + strings.TrimRight(rest, "?.! ")
		}
	}
	return question
}
