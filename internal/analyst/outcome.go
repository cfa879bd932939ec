package analyst

import (
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/narrate"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// Status says how an ask ended. The values are the wire values every
// surface has always sent.
type Status string

// The statuses of an ask.
const (
	Answered   Status = event.StatusSucceeded       // an answer, with its SQL, rows, checks and confidence
	Clarify    Status = "clarify"                   // two meanings fit; Clarify is the question to answer
	Unanswered Status = event.StatusUnanswered      // the question did not map with confidence; Message says why
	Refused    Status = event.StatusRejected        // a request to change data, or about restricted columns
	Failed     Status = event.StatusFailed          // the database, the model or quarry failed
	Canceled   Status = event.StatusCanceled        // interrupted
	Waiting    Status = event.StatusAwaitingResults // manual mode: a query was proposed; its results are awaited
)

// Outcome is the one account of an ask that every surface gives: `quarry
// ask` (text and --json), POST /ask, the chat's done event and MCP's ask
// map it to their own wire shapes, so that they say the same things about
// the same run.
type Outcome struct {
	RunID    string
	Status   Status
	Question string
	AsOf     string

	// The answer, when Status is Answered.
	SQL        string
	Answer     string // Markdown
	Headline   string
	Checks     []verify.Check
	Confidence float64
	Table      *quarry.Table // the rows kept (a preview of a long result)
	RowCount   int64
	Truncated  bool
	ResultID   string
	Chart      narrate.ChartSpec
	Duration   time.Duration

	// Why there is no answer, when Status is not Answered: one line, and
	// the kind of the error behind it ("" when none).
	Message   string
	ErrorKind quarry.Kind

	// How the question was read.
	Reading     *event.ReadingData // in business terms; nil when nothing was planned
	Reason      string             // the planner's own short reason for no answer, when it gave one
	PlanKind    string
	PlanTitle   string
	Understood  []string
	Unknown     []string
	Suggestions []string
	// DidYouMean is the question with its unknown words corrected, when
	// that question can be answered ("revenue by channel").
	DidYouMean string
	Clarify    string   // the question to answer, when Status is Clarify
	Options    []string // its choices
}

// OutcomeOf is the outcome of an ask from what Ask returned. out may be
// nil (the ask failed before it began); err is the ask's error, if any.
func OutcomeOf(out *AskOutcome, err error) Outcome {
	var o Outcome
	if out != nil {
		o = Outcome{RunID: out.RunID, Status: Status(out.Status), Question: out.Question, AsOf: out.AsOf,
			SQL: out.SQL, RowCount: out.Rows, Truncated: out.Truncated, ResultID: out.ResultID, Duration: out.Duration,
			Table: out.Table, Message: out.Message, Reading: out.Reading}
		if pl := out.Plan; pl != nil {
			o.PlanKind, o.PlanTitle = string(pl.Kind), pl.Title
			o.Understood, o.Unknown, o.Suggestions, o.DidYouMean = pl.Understood, pl.Unknown, pl.Suggestions, pl.DidYouMean
			o.Reason = oneLine(pl.Reason)
			if o.Status == Clarify {
				o.Clarify, o.Options = pl.Question, pl.Options
			}
		}
	}
	if o.Status == "" {
		o.Status = Failed
		if err != nil {
			o.Status = Status(statusOf(err))
		}
	}
	if err != nil {
		o.ErrorKind = quarry.KindOf(err)
		if o.Message == "" {
			o.Message = quarry.Message(err)
		}
	}
	o.Message = oneLine(o.Message)
	if o.Status == Answered && out != nil {
		o.Message, o.ErrorKind = "", ""
		o.Answer, o.Headline, o.Chart = out.Answer.Markdown, out.Answer.Headline, out.Answer.Chart
		o.Checks, o.Confidence = out.Report.Checks, out.Report.Confidence
	}
	return o
}

// NotAnswered reports whether the outcome is a question quarry declined
// rather than a failure: unanswered, a clarification, or a refusal. Those
// are answers too; surfaces show them, not an error.
func (o Outcome) NotAnswered() bool {
	return o.Status == Unanswered || o.Status == Clarify || o.Status == Refused
}

// Explain says, in a few lines of Markdown, why there is no answer: the
// question to answer and its choices, the refusal, or what quarry could not
// read, with what it understood, what it did not, and the closest terms it
// knows. Every surface that shows text uses it.
func (o Outcome) Explain() string {
	var b strings.Builder
	switch {
	case o.Status == Clarify:
		b.WriteString("Which do you mean? " + o.Clarify + "\n")
		for _, opt := range o.Options {
			b.WriteString("- " + opt + "\n")
		}
	case o.Status == Refused:
		b.WriteString("Refused: " + o.Message + "\n")
	case o.Status == Waiting:
		b.WriteString("No connection is configured, so quarry did not run this query. Run it on your database, then paste its result (quarry ask --results, or the web chat) for quarry to check and explain:\n\n```sql\n" + strings.TrimSpace(o.SQL) + "\n```\n")
	default:
		b.WriteString("I could not answer that with confidence, so I did not guess.\n")
		if o.Reason != "" && o.Status == Unanswered {
			b.WriteString(o.Reason + "\n")
		} else if o.Message != "" {
			b.WriteString(o.Message + "\n")
		}
	}
	if o.Reading != nil && o.Reading.Text != "" {
		b.WriteString("Read as: " + o.Reading.Text + "\n")
	}
	if len(o.Understood) > 0 {
		b.WriteString("Understood: " + strings.Join(o.Understood, "; ") + "\n")
	}
	if len(o.Unknown) > 0 {
		b.WriteString("Not understood: " + strings.Join(o.Unknown, ", ") + "\n")
	}
	if o.DidYouMean != "" {
		b.WriteString("Did you mean: " + o.DidYouMean + "?\n")
	} else if len(o.Suggestions) > 0 {
		b.WriteString("Closest known terms: " + strings.Join(o.Suggestions, ", ") + "\n")
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
