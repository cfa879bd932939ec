package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Summary counts the grades of a run.
type Summary struct {
	Total    int `json:"total"`
	Correct  int `json:"correct"`
	Answered int `json:"answered"` // the system gave an answer (right or wrong)
	// AnsweredCorrect are the correct cases the system answered (not the
	// expected refusals it refused).
	AnsweredCorrect int `json:"answered_correct"`
	Refusals        int `json:"refusals"`      // refused, clarify or unanswered, whether expected or not
	ExtraColumns    int `json:"extra_columns"` // correct answers with extra columns
	// GoldInExtra counts wrong_columns answers that hold the gold result
	// plus extra columns: they would be correct with extra columns allowed.
	GoldInExtra int            `json:"gold_in_extra"`
	ByStatus    map[Status]int `json:"by_status"`
	ByReason    map[Reason]int `json:"by_reason"`
	// ByGap counts the questions not answered by what blocked them
	// (Result.Gap), where the system says.
	ByGap map[string]int `json:"by_gap,omitempty"`
	// Accuracy is Correct / Total.
	Accuracy float64 `json:"accuracy"`
	// AnsweredAccuracy is AnsweredCorrect / Answered: how often an answer,
	// when given, is right.
	AnsweredAccuracy float64 `json:"answered_accuracy"`
	// RefusalRate is Refusals / Total.
	RefusalRate float64 `json:"refusal_rate"`
	// Calibration counts the answers in each band of confidence, and how
	// many of them were right: what a confidence means, measured.
	Calibration []Band `json:"calibration"`
	// Wrong are the cases answered wrongly, the dangerous ones.
	Wrong []Result `json:"wrong,omitempty"`
	// Refused are the cases with gold that the system did not answer.
	Refused []Result `json:"refused,omitempty"`
	// Expected are the cases whose correct outcome was not an answer and
	// that were not answered.
	Expected []Result `json:"expected,omitempty"`
	// Failed are errors, timeouts and gold errors.
	Failed []Result `json:"failed,omitempty"`
}

// Summarize counts results.
func Summarize(rs []Result) Summary {
	s := Summary{ByStatus: map[Status]int{}, ByReason: map[Reason]int{}, ByGap: map[string]int{}}
	for _, b := range bands {
		s.Calibration = append(s.Calibration, Band{Label: b.label, Min: b.min, Max: b.max})
	}
	for _, r := range rs {
		if r.Answered() && (r.Status == StatusCorrect || r.Status == StatusWrong) {
			for i := range s.Calibration {
				if b := &s.Calibration[i]; r.Confidence >= b.Min && (r.Confidence < b.Max || b.Max == 1 && r.Confidence <= 1) {
					b.Answered++
					if r.Status == StatusCorrect {
						b.Correct++
					}
					break
				}
			}
		}
		s.Total++
		s.ByStatus[r.Status]++
		if r.Reason != "" {
			s.ByReason[r.Reason]++
		}
		if r.Gap != "" && r.Status == StatusRefused {
			s.ByGap[r.Gap]++
		}
		switch r.Outcome {
		case OutcomeAnswered:
			s.Answered++
		case OutcomeRefused, OutcomeClarify, OutcomeUnanswered:
			s.Refusals++
		}
		switch r.Status {
		case StatusCorrect:
			s.Correct++
			if r.Answered() {
				s.AnsweredCorrect++
			}
			if r.Extra > 0 {
				s.ExtraColumns++
			}
			if r.Expect != "" {
				s.Expected = append(s.Expected, r)
			}
		case StatusWrong:
			s.Wrong = append(s.Wrong, r)
			if r.GoldInExtra {
				s.GoldInExtra++
			}
		case StatusRefused:
			s.Refused = append(s.Refused, r)
		default:
			s.Failed = append(s.Failed, r)
		}
	}
	s.Accuracy = ratio(s.Correct, s.Total)
	s.AnsweredAccuracy = ratio(s.AnsweredCorrect, s.Answered)
	s.RefusalRate = ratio(s.Refusals, s.Total)
	return s
}

// Band is one band of confidence: the answers graded in it and how many
// were right.
type Band struct {
	Label    string  `json:"label"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Answered int     `json:"answered"`
	Correct  int     `json:"correct"`
}

// bands are the confidence bands calibration reports, highest first: 0.9
// and over is what every surface shows as a confident answer.
var bands = []struct {
	label    string
	min, max float64
}{
	{"0.90–1.00", 0.9, 1}, {"0.70–0.89", 0.7, 0.9}, {"0.50–0.69", 0.5, 0.7}, {"below 0.50", 0, 0.5},
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Line is the summary in one line.
func (s *Summary) Line() string {
	return fmt.Sprintf("%d cases: %d correct (accuracy %.1f%%), %d answered (answered accuracy %.1f%%), %d wrong, %d not answered (refusal rate %.1f%%), %d errors",
		s.Total, s.Correct, 100*s.Accuracy, s.Answered, 100*s.AnsweredAccuracy, len(s.Wrong), s.Refusals, 100*s.RefusalRate, len(s.Failed))
}

// WriteText writes a readable report: the summary line, counts by status
// and reason, then the wrong answers, the failures and (when verbose) the
// refusals.
func (s *Summary) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	b.WriteString(s.Line() + "\n")
	b.WriteString("by status: " + counts(s.ByStatus) + "\n")
	if len(s.ByReason) > 0 {
		b.WriteString("by reason: " + counts(s.ByReason) + "\n")
	}
	if len(s.ByGap) > 0 {
		b.WriteString("not answered, by what blocked them: " + counts(s.ByGap) + "\n")
	}
	if s.ExtraColumns > 0 {
		fmt.Fprintf(&b, "correct with extra columns: %d\n", s.ExtraColumns)
	}
	if s.GoldInExtra > 0 {
		fmt.Fprintf(&b, "wrong_columns answers that hold the gold plus extra columns: %d\n", s.GoldInExtra)
	}
	var cal []string
	for _, band := range s.Calibration {
		if band.Answered > 0 {
			cal = append(cal, fmt.Sprintf("%s: %d of %d right", band.Label, band.Correct, band.Answered))
		}
	}
	if len(cal) > 0 {
		b.WriteString("calibration (confidence: answers right): " + strings.Join(cal, "; ") + "\n")
	}
	section := func(title string, rs []Result) {
		if len(rs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", title, len(rs))
		for _, r := range rs {
			fmt.Fprintf(&b, "- %s%s: %q\n  %s", groupPrefix(r), r.ID, r.Question, r.Reason)
			if r.Detail != "" {
				b.WriteString(": " + r.Detail)
			}
			b.WriteString("\n")
			if r.SQL != "" {
				b.WriteString("  sql:  " + oneLine(r.SQL) + "\n")
			}
			if r.GoldSQL != "" && r.Status == StatusWrong {
				b.WriteString("  gold: " + oneLine(r.GoldSQL) + "\n")
			}
		}
	}
	var other []Result
	for _, r := range s.Expected {
		if r.Detail != "" {
			other = append(other, r)
		}
	}
	section("wrong answers", s.Wrong)
	section("errors", s.Failed)
	if verbose {
		section("not answered", s.Refused)
		section("expected refusals given as another kind", other)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func groupPrefix(r Result) string {
	if r.Group == "" {
		return ""
	}
	return r.Group + "/"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func counts[K ~string](m map[K]int) string {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}
