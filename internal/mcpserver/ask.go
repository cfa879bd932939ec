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

// AskResult is what ask returns: analyst.Outcome, as quarry ask --json,
// POST /ask and the chat give it, in a flat shape. Status is succeeded, or
// why there is no answer: unanswered (the question did not map with
// confidence; Message says why), clarify (two meanings fit; Clarify is the
// question to answer), rejected (a request to change data, or about
// restricted columns).
type AskResult struct {
	RunID    string `json:"run_id"`
	Status   string `json:"status"`
	Question string `json:"question"`
	AsOf     string `json:"as_of"`
	Answer   string `json:"answer,omitempty"` // Markdown
	Headline string `json:"headline,omitempty"`
	// Interpretation is how the question was read, in business terms:
	// check it to spot a misreading without reading the SQL.
	Interpretation *event.ReadingData `json:"interpretation,omitempty"`
	SQL            string             `json:"sql,omitempty"`
	Checks         []verify.Check     `json:"checks,omitempty"`
	Confidence     float64            `json:"confidence,omitempty"`
	Columns        []Column           `json:"columns,omitempty"`
	Rows           [][]any            `json:"rows,omitempty"` // the first rows, at most 20
	RowCount       int64              `json:"row_count"`
	Truncated      bool               `json:"truncated"`
	ResultID       string             `json:"result_id,omitempty"`
	Message        string             `json:"message,omitempty"` // why there is no answer
	Understood     []string           `json:"understood,omitempty"`
	Unknown        []string           `json:"unknown,omitempty"`
	Suggestions    []string           `json:"suggestions,omitempty"`
	DidYouMean     string             `json:"did_you_mean,omitempty"`
	Clarify        string             `json:"clarify,omitempty"`
	Options        []string           `json:"options,omitempty"`
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
	_, pol, err := s.project(ctx)
	if err != nil {
		return nil, nil, err
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
	o := analyst.OutcomeOf(out, err)
	return textResult(askMarkdown(o)), askResult(o, pol), nil
}

// askResult is the outcome as ask returns it (analyst.Outcome, as every
// surface gives it); restricted columns of the preview are redacted.
func askResult(o analyst.Outcome, pol restricted) *AskResult {
	r := &AskResult{RunID: o.RunID, Status: string(o.Status), Question: o.Question, AsOf: o.AsOf, SQL: o.SQL,
		RowCount: o.RowCount, Truncated: o.Truncated, ResultID: o.ResultID, Message: o.Message,
		Understood: o.Understood, Unknown: o.Unknown, Suggestions: o.Suggestions, DidYouMean: o.DidYouMean, Clarify: o.Clarify, Options: o.Options,
		Answer: o.Answer, Headline: o.Headline, Checks: o.Checks, Confidence: o.Confidence, Interpretation: o.Reading}
	if o.Status != analyst.Answered {
		r.RowCount, r.Truncated, r.ResultID = 0, false, ""
		return r
	}
	if t := o.Table; t != nil {
		r.Columns = columns(t.Columns)
		hide := pol.columns(t.Columns)
		for i, row := range t.Rows {
			if i == previewRows {
				break
			}
			r.Rows = append(r.Rows, pol.redact(jsonRow(row), hide))
		}
	}
	return r
}

// askMarkdown is the answer for clients that show text: the answer, the
// SQL, the checks and the run; or why there is none (Outcome.Explain).
func askMarkdown(o analyst.Outcome) string {
	var b strings.Builder
	if o.Status != analyst.Answered {
		b.WriteString(o.Explain())
		fmt.Fprintf(&b, "\nRun %s · as of %s\n", o.RunID, o.AsOf)
		return b.String()
	}
	b.WriteString(strings.TrimRight(o.Answer, "\n") + "\n")
	if o.SQL != "" {
		fmt.Fprintf(&b, "\n```sql\n%s\n```\n", strings.TrimSpace(o.SQL))
	}
	// quarry's own answers already end with their checks and confidence;
	// say them only when the answer does not.
	if len(o.Checks) > 0 && !strings.Contains(o.Answer, "Confidence:") {
		b.WriteString("\nChecks:")
		for i, c := range o.Checks {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %s %s", sep, c.Name, c.Status)
		}
		fmt.Fprintf(&b, " · confidence %.2f\n", o.Confidence)
	}
	rows := "rows"
	if o.RowCount == 1 {
		rows = "row"
	}
	fmt.Fprintf(&b, "\nRun %s · %d %s", o.RunID, o.RowCount, rows)
	if o.ResultID != "" {
		fmt.Fprintf(&b, " · result %s (get_result reads its rows)", o.ResultID)
	}
	fmt.Fprintf(&b, " · as of %s\n", o.AsOf)
	return b.String()
}
