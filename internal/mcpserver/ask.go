package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// AskInput is the input of ask.
type AskInput struct {
	Question string `json:"question" jsonschema:"the question, in plain language"`
	AsOf     string `json:"as_of,omitempty" jsonschema:"read relative dates (last month, this year) against this day, YYYY-MM-DD (default: today)"`
}

// AskResult is what ask returns, the shape of quarry ask --json. Status is
// succeeded, or why there is no answer: unanswered (the question did not
// map with confidence), clarify (two meanings fit; Clarify is the question
// to answer), rejected (a request to change data, or about restricted
// columns).
type AskResult struct {
	RunID       string         `json:"run_id"`
	Status      string         `json:"status"`
	Question    string         `json:"question"`
	AsOf        string         `json:"as_of"`
	Answer      string         `json:"answer,omitempty"` // Markdown
	Headline    string         `json:"headline,omitempty"`
	SQL         string         `json:"sql,omitempty"`
	Checks      []verify.Check `json:"checks,omitempty"`
	Confidence  float64        `json:"confidence,omitempty"`
	Columns     []Column       `json:"columns,omitempty"`
	Rows        [][]any        `json:"rows,omitempty"` // the first rows, at most 20
	RowCount    int64          `json:"row_count"`
	Truncated   bool           `json:"truncated"`
	ResultID    string         `json:"result_id,omitempty"`
	Message     string         `json:"message,omitempty"` // why there is no answer
	Understood  []string       `json:"understood,omitempty"`
	Unknown     []string       `json:"unknown,omitempty"`
	Suggestions []string       `json:"suggestions,omitempty"`
	Clarify     string         `json:"clarify,omitempty"`
	Options     []string       `json:"options,omitempty"`
}

func (s *server) ask(ctx context.Context, _ *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, *AskResult, error) {
	question := strings.TrimSpace(in.Question)
	if question == "" {
		return nil, nil, failf(`question is empty; send it as "question"`)
	}
	day := s.cfg.Clock()
	if in.AsOf != "" {
		t, err := time.Parse("2006-01-02", in.AsOf)
		if err != nil {
			return nil, nil, failf(fmt.Sprintf("as_of %q is not a date; write it as YYYY-MM-DD", in.AsOf))
		}
		day = t
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RunTimeout)
	defer cancel()
	rec := s.recorder()
	out, err := s.cfg.Ask(ctx, rec, question, day)
	if out == nil {
		return nil, nil, failf(quarry.Message(err) + " (run " + rec.RunID() + ")")
	}
	if err != nil {
		switch quarry.KindOf(err) {
		case quarry.KindUnanswered, quarry.KindForbidden, quarry.KindRejected:
		default:
			return nil, nil, failf(quarry.Message(err) + " (run " + out.RunID + ")")
		}
	}
	r := s.askResult(out, err)
	return textResult(askMarkdown(r)), r, nil
}

// askResult is the outcome as ask returns it; restricted columns of the
// preview are redacted.
func (s *server) askResult(out *analyst.AskOutcome, err error) *AskResult {
	r := &AskResult{RunID: out.RunID, Status: out.Status, Question: out.Question, AsOf: out.AsOf, SQL: out.SQL,
		RowCount: out.Rows, Truncated: out.Truncated, ResultID: out.ResultID}
	if pl := out.Plan; pl != nil {
		r.Understood, r.Unknown, r.Suggestions = pl.Understood, pl.Unknown, pl.Suggestions
		if out.Status == "clarify" {
			r.Clarify, r.Options = pl.Question, pl.Options
		}
	}
	if err != nil {
		r.Message = oneLine(quarry.Message(err))
		if out.Plan != nil && out.Plan.Reason != "" && quarry.KindOf(err) == quarry.KindUnanswered && out.Status != "clarify" {
			r.Message = oneLine(out.Plan.Reason)
		}
		return r
	}
	if out.Status == event.StatusSucceeded {
		r.Answer, r.Headline = out.Answer.Markdown, out.Answer.Headline
		r.Checks, r.Confidence = out.Report.Checks, out.Report.Confidence
	}
	if t := out.Table; t != nil {
		r.Columns = columns(t.Columns)
		hide := s.policy.columns(t.Columns)
		for i, row := range t.Rows {
			if i == previewRows {
				break
			}
			r.Rows = append(r.Rows, s.policy.redact(jsonRow(row), hide))
		}
	}
	return r
}

// askMarkdown is the answer for clients that show text: the answer, the
// SQL, the checks and the run; or why there is no answer.
func askMarkdown(r *AskResult) string {
	var b strings.Builder
	switch {
	case r.Status == "clarify":
		fmt.Fprintf(&b, "Which do you mean? %s\n", r.Clarify)
		for _, o := range r.Options {
			fmt.Fprintf(&b, "- %s\n", o)
		}
	case r.Status == event.StatusRejected:
		fmt.Fprintf(&b, "Refused: %s\n", r.Message)
	case r.Message != "":
		fmt.Fprintf(&b, "I could not answer that with confidence, so I did not guess. %s\n", r.Message)
	default:
		b.WriteString(strings.TrimRight(r.Answer, "\n") + "\n")
		if r.SQL != "" {
			fmt.Fprintf(&b, "\n```sql\n%s\n```\n", strings.TrimSpace(r.SQL))
		}
		// quarry's own answers already end with their checks and
		// confidence; say them only when the answer does not.
		if len(r.Checks) > 0 && !strings.Contains(r.Answer, "Confidence:") {
			b.WriteString("\nChecks:")
			for i, c := range r.Checks {
				sep := ","
				if i == 0 {
					sep = ""
				}
				fmt.Fprintf(&b, "%s %s %s", sep, c.Name, c.Status)
			}
			fmt.Fprintf(&b, " · confidence %.2f\n", r.Confidence)
		}
	}
	if len(r.Understood) > 0 && r.Message != "" {
		fmt.Fprintf(&b, "\nUnderstood: %s\n", strings.Join(r.Understood, "; "))
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintf(&b, "Not understood: %s\n", strings.Join(r.Unknown, ", "))
	}
	if len(r.Suggestions) > 0 {
		fmt.Fprintf(&b, "Closest known terms: %s\n", strings.Join(r.Suggestions, ", "))
	}
	fmt.Fprintf(&b, "\nRun %s", r.RunID)
	if r.SQL != "" && r.Message == "" {
		fmt.Fprintf(&b, " · %d rows", r.RowCount)
	}
	if r.ResultID != "" {
		fmt.Fprintf(&b, " · result %s (get_result reads its rows)", r.ResultID)
	}
	fmt.Fprintf(&b, " · as of %s\n", r.AsOf)
	return b.String()
}
