// Package schedule reads when a monitor runs: a standard five-field cron
// expression ("0 9 * * 1") or a plain-language phrase ("every Monday at
// 9", "hourly on weekdays", "first business day of the month"). The
// plain-language reader accepts a small, exact grammar and refuses
// anything else rather than guessing; whatever it reads, it shows as the
// cron expression it understood. Next times come from
// github.com/robfig/cron/v3. The package is pure: times come in as
// arguments.
package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Schedule is a parsed schedule.
type Schedule struct {
	// Text is the schedule as written.
	Text string
	// Cron is the five-field cron expression the schedule was read as.
	Cron string
	// FirstOnly, when set, keeps only the first time Cron matches in each
	// month: "first business day of the month at 9" is Cron "0 9 * * 1-5"
	// (weekdays at 9) with FirstOnly.
	FirstOnly bool
	spec      cron.Schedule
}

// Describe says what the schedule was read as, with its cron expression:
// `cron "0 9 * * 1"` or `cron "0 9 * * 1-5", the first match of each
// month`.
func (s Schedule) Describe() string {
	if s.FirstOnly {
		return fmt.Sprintf("cron %q, the first match of each month", s.Cron)
	}
	return fmt.Sprintf("cron %q", s.Cron)
}

// Next returns the first time after t that the schedule fires, in t's
// location; the zero time when it never does.
func (s Schedule) Next(t time.Time) time.Time {
	if s.spec == nil {
		return time.Time{}
	}
	if !s.FirstOnly {
		return s.spec.Next(t)
	}
	for n, i := s.spec.Next(t), 0; !n.IsZero() && i < 1000; n, i = s.spec.Next(n), i+1 {
		if s.firstInMonth(n) {
			return n
		}
	}
	return time.Time{}
}

// firstInMonth reports whether no earlier time of n's month matches the
// cron expression.
func (s Schedule) firstInMonth(n time.Time) bool {
	start := time.Date(n.Year(), n.Month(), 1, 0, 0, 0, 0, n.Location()).Add(-time.Second)
	return s.spec.Next(start).Equal(n)
}

// Parse reads a cron expression or a plain-language phrase. An expression
// starting with a digit, '*' or '@' is cron (robfig/cron's standard
// parser: five fields or a descriptor such as @daily); anything else must
// be one of the phrases ParsePlain accepts.
func Parse(text string) (Schedule, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return Schedule{}, quarry.Errorf(quarry.KindInput, "the schedule is empty; write a cron expression (\"0 9 * * 1\") or a phrase (\"every Monday at 9\")")
	}
	if c := t[0]; c == '*' || c == '@' || (c >= '0' && c <= '9') {
		return parseCron(text, t)
	}
	return ParsePlain(text)
}

// MinEvery is the shortest interval an "@every" schedule may have: a
// monitor judges days at the finest, and each run is a recorded query.
const MinEvery = time.Minute

// neverRef is the fixed time from which a cron expression must fire
// within five years (robfig/cron's own horizon) to be accepted: every
// expression that fires at all does (a 29 February comes every four
// years from it).
var neverRef = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)

func parseCron(text, expr string) (Schedule, error) {
	if rest, ok := strings.CutPrefix(expr, "@every"); ok && strings.TrimSpace(rest) != "" {
		d, err := time.ParseDuration(strings.TrimSpace(rest))
		if err != nil {
			return Schedule{}, quarry.Errorf(quarry.KindInput, "cannot read the interval of %q; write a duration such as \"@every 15m\" or \"@every 6h\"", expr)
		}
		if d < MinEvery {
			return Schedule{}, quarry.Errorf(quarry.KindInput, "the schedule %q runs too often: an interval must be at least 1m (\"@every 15m\")", expr)
		}
	}
	spec, err := cron.ParseStandard(expr)
	if err != nil {
		return Schedule{}, quarry.Wrap(quarry.KindInput, err, "cannot read the cron expression %q; write five fields: minute hour day-of-month month day-of-week", expr)
	}
	if spec.Next(neverRef).IsZero() {
		return Schedule{}, quarry.Errorf(quarry.KindInput, "the cron expression %q never fires: no such day comes within five years; check the day of the month against the month", expr)
	}
	return Schedule{Text: text, Cron: expr, spec: spec}, nil
}

// fromCron builds the schedule of a plain phrase from the cron it means.
func fromCron(text, expr string, firstOnly bool) (Schedule, error) {
	spec, err := cron.ParseStandard(expr)
	if err != nil {
		// The plain reader only writes valid expressions.
		return Schedule{}, quarry.Wrap(quarry.KindInternal, err, "the schedule %q was read as an invalid cron expression %q", text, expr)
	}
	return Schedule{Text: text, Cron: expr, FirstOnly: firstOnly, spec: spec}, nil
}
