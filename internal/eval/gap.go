package eval

import (
	"regexp"
	"strings"

	"github.com/quarrydata/quarry/internal/planner"
)

// Gaps: what blocked a question the builtin planner did not answer, so
// that a benchmark's refusals say where the next capability lies.
const (
	GapNegation   = "negation"      // "never", "no", "without", "not": an anti-join
	GapSetOp      = "set_operation" // "both … and", "either", "but not"
	GapComparison = "comparison"    // "between", "than", "above the average": a range or a nested query
	GapNumber     = "number"        // a number the planner could not place
	GapWordForm   = "word_form"     // a form of a known term: "injuries" for injured, "areas" for area
	GapVocabulary = "vocabulary"    // a word the knowledge does not know
	GapClarify    = "clarify"       // two readings, one question asked
	GapAmbiguous  = "ambiguous"     // a word that names several columns or values
	GapJoin       = "join"          // a name in a table of many rows per key, or no join path
	GapLabel      = "label"         // an entity without a label column
	GapCoverage   = "coverage"      // the reading left part of the question out
	GapZeroGroups = "zero_groups"   // groups with none would be missing
	GapWrite      = "write"         // a request to change data
	GapRestricted = "restricted"    // the column policy
	GapOther      = "other"
)

var (
	negationWords = map[string]bool{"no": true, "never": true, "not": true, "without": true, "none": true, "neither": true, "nor": true, "nobody": true, "nothing": true, "any": true}
	setOpWords    = map[string]bool{"both": true, "either": true, "but": true, "except": true, "intersect": true, "union": true, "excluding": true}
	compareWords  = map[string]bool{"between": true, "than": true, "above": true, "below": true, "exceeds": true, "exceed": true, "equal": true, "equals": true, "average": true}
	numberRE      = regexp.MustCompile(`^[\d.,%$€£-]+$`)
)

// gapOf says what blocked a question from the plan that did not answer it
// and the message given. pl may be nil.
func gapOf(kind string, pl *planner.Plan, msg string) string {
	if kind == OutcomeClarify {
		return GapClarify
	}
	if pl != nil && pl.Kind == planner.KindRefuse {
		if strings.Contains(msg, "change data") {
			return GapWrite
		}
		return GapRestricted
	}
	if pl != nil && len(pl.Unknown) > 0 {
		return unknownGap(pl.Unknown, pl.Suggestions)
	}
	l := strings.ToLower(msg)
	switch {
	case strings.Contains(l, "could mean") || strings.Contains(l, "more than one column") || strings.Contains(l, "which one"):
		return GapAmbiguous
	case strings.Contains(l, "not a single related row") || strings.Contains(l, "no relationship") || strings.Contains(l, "relates to the question"):
		return GapJoin
	case strings.Contains(l, "label column"):
		return GapLabel
	case strings.Contains(l, "leaves part of it out"):
		return GapCoverage
	case strings.Contains(l, "would be missing") || strings.Contains(l, "have none"):
		return GapZeroGroups
	case strings.Contains(l, "change data"):
		return GapWrite
	}
	return GapOther
}

// unknownGap classifies the words the planner did not know, the most
// telling first: a negation or a set operation says more than a stray word.
func unknownGap(unknown, suggestions []string) string {
	var words []string
	for _, u := range unknown {
		words = append(words, strings.Fields(strings.ToLower(u))...)
	}
	for _, order := range []struct {
		gap string
		in  map[string]bool
	}{{GapNegation, negationWords}, {GapSetOp, setOpWords}, {GapComparison, compareWords}} {
		for _, w := range words {
			if order.in[w] {
				return order.gap
			}
		}
	}
	for _, w := range words {
		if numberRE.MatchString(w) {
			return GapNumber
		}
	}
	for _, w := range words {
		for _, s := range suggestions {
			for _, sw := range strings.Fields(strings.ToLower(s)) {
				if len(w) >= 4 && len(sw) >= 4 && w[:4] == sw[:4] {
					return GapWordForm
				}
			}
		}
	}
	return GapVocabulary
}
