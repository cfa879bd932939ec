package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/verify"
)

// askRequest is the body of POST /ask.
type askRequest struct {
	Question string `json:"question"`
	AsOf     string `json:"as_of,omitempty"` // read relative dates against this day, YYYY-MM-DD
}

// askResponse is the "SQL Query Agent" contract: success, answer, query,
// data, trace, with quarry's warnings and run ID added, and what every
// surface says of an ask (analyst.Outcome): its status, why there is no
// answer, the headline, the checks and the confidence.
type askResponse struct {
	Success  bool   `json:"success"`
	Status   string `json:"status"`
	Answer   string `json:"answer"`
	Headline string `json:"headline,omitempty"`
	// Interpretation is how the question was read, in business terms.
	Interpretation *event.ReadingData `json:"interpretation,omitempty"`
	Markdown       string             `json:"markdown,omitempty"` // the whole answer: the sentence, the table, the checks
	Message        string             `json:"message,omitempty"`  // why there is no answer, one line
	// DidYouMean is the question with its unknown words replaced by the
	// closest known terms, when that question can be answered.
	DidYouMean string         `json:"did_you_mean,omitempty"`
	Query      string         `json:"query"`
	Data       askData        `json:"data"`
	Checks     []verify.Check `json:"checks"`
	Confidence float64        `json:"confidence,omitempty"` // absent when there is no answer
	Trace      []traceStep    `json:"trace"`
	Warnings   []string       `json:"warnings"`
	RunID      string         `json:"run_id"`
	Error      *apiError      `json:"error,omitempty"`
}

type askData struct {
	Rows          []map[string]any `json:"rows"`
	RowCount      int64            `json:"rowCount"`
	ExecutionTime string           `json:"executionTime"`
}

// traceStep is one step of the pipeline as the log recorded it.
type traceStep map[string]any

// ask answers POST /ask in one response. The run goes on a detached
// context: it finishes and is recorded even when the client goes away.
func (s *Server) ask(w http.ResponseWriter, r *http.Request) {
	var req askRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	question := strings.TrimSpace(req.Question)
	if question == "" {
		writeError(w, errf("question is empty; send {\"question\": \"…\"}"))
		return
	}
	asOf, err := s.asOf(req.AsOf)
	if err != nil {
		writeError(w, err)
		return
	}
	var (
		log  = &eventLog{}
		resp = askResponse{RunID: s.cfg.NewID("r"), Trace: []traceStep{}, Warnings: []string{}, Data: askData{Rows: []map[string]any{}}}
		out  *analyst.AskOutcome
	)
	ran := s.inSlot(w, r, func(ctx context.Context) {
		rec := event.NewRecorder(resp.RunID, s.cfg.Clock, event.MultiSink(batched(s.cfg.Store), log))
		out, err = s.cfg.Ask(ctx, rec, question, asOf, agent.AskOptions{})
	})
	if !ran {
		return
	}
	o := analyst.OutcomeOf(out, err)
	resp.Status, resp.Message, resp.Headline, resp.Interpretation = string(o.Status), o.Message, o.Headline, o.Reading
	resp.Checks, resp.Confidence, resp.DidYouMean = o.Checks, o.Confidence, o.DidYouMean
	if resp.Checks == nil {
		resp.Checks = []verify.Check{}
	}
	resp.Trace = trace(log.events)
	status := http.StatusOK
	if out != nil {
		resp.Query = out.SQL
		// The contract's answer is the sentence; the table stays in data,
		// and the whole Markdown is markdown.
		resp.Answer, resp.Markdown = out.Answer.Headline, out.Answer.Markdown
		resp.Data.RowCount = out.Rows
		resp.Data.ExecutionTime = fmt.Sprintf("%dms", out.Duration.Round(time.Millisecond).Milliseconds())
		if out.Table != nil {
			for i, row := range out.Table.Rows {
				if i == previewRows {
					break
				}
				m := make(map[string]any, len(row))
				for k, v := range row {
					m[out.Table.Columns[k].Name] = quarry.JSONValue(v)
				}
				resp.Data.Rows = append(resp.Data.Rows, m)
			}
		}
		resp.Warnings = warnings(out)
		if out.Verdict != nil && out.Verdict.Allowed && !out.Verdict.HasLimit {
			for _, st := range resp.Trace {
				if st["step"] == "safety_check" {
					st["warnings"] = []string{"no LIMIT clause: previews show the first 100 rows"}
				}
			}
		}
	}
	if err != nil {
		e := errorBody(err)
		resp.Error = &e
		if resp.Answer == "" {
			resp.Answer = e.Message
		}
		status = Status(quarry.KindOf(err))
	} else {
		resp.Success = true
	}
	writeJSON(w, status, resp)
}

// warnings says what a reader of the preview should know: that it holds
// only the first rows (the auto-LIMIT of previews), that the read stopped
// at the row cap, and the checks that warned or failed.
func warnings(out *analyst.AskOutcome) []string {
	ws := []string{}
	if out.Rows > previewRows {
		what := "showing"
		if out.Verdict != nil && !out.Verdict.HasLimit {
			what = "no LIMIT: showing"
		}
		ws = append(ws, fmt.Sprintf("%s the first %d of %s rows; the full result is GET /api/results/%s", what, previewRows, thousands(out.Rows), out.ResultID))
	}
	if out.Truncated {
		ws = append(ws, fmt.Sprintf("the query stopped at %s rows (the row cap); the result is incomplete", thousands(out.Rows)))
	}
	for _, c := range out.Report.Checks {
		if c.Status == "warn" || c.Status == "fail" {
			ws = append(ws, c.Name+": "+c.Detail)
		}
	}
	return ws
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// trace turns a run's events into the contract's steps (the SQL Query
// Agent's schema_extraction, query_generation, safety_check, execution,
// summarization), with quarry's own between them: interpretation (how the
// question was read), policy (the column policy's verdict) and
// verification (the checks and the confidence). Each statement generated
// is an attempt: query_generation, safety_check and policy carry its
// number.
func trace(events []event.Event) []traceStep {
	steps := []traceStep{}
	var interp traceStep
	attempt := 0
	for _, e := range events {
		p, err := event.Decode(e)
		if err != nil || p == nil {
			continue
		}
		switch d := p.(type) {
		case *event.QuestionParsedData:
			steps = append(steps, traceStep{"step": "schema_extraction", "success": true, "source": "knowledge"})
			interp = traceStep{"step": "interpretation", "understood": nonNil(d.Understood), "unknown": nonNil(d.Unknown)}
			steps = append(steps, interp)
		case *event.ClarificationData:
			if interp != nil {
				interp["clarification"] = d.Question
				interp["options"] = nonNil(d.Options)
			}
		case *event.PlanMadeData:
			if interp != nil {
				interp["source"] = d.Source
				interp["success"] = true
				if len(d.Plan) > 0 {
					interp["plan"] = json.RawMessage(d.Plan)
				}
			}
		case *event.ReadingData:
			if interp == nil {
				interp = traceStep{"step": "interpretation", "success": true}
				steps = append(steps, interp)
			}
			interp["reading"] = d
		case *event.SQLGeneratedData:
			attempt++
			steps = append(steps, traceStep{"step": "query_generation", "attempt": attempt, "success": true, "query": d.SQL, "source": d.Source})
		case *event.GuardCheckedData:
			issues, restricted := []string{}, []string{}
			for _, v := range d.Violations {
				if v.Code == "restricted_column" {
					restricted = append(restricted, v.Message)
				} else {
					issues = append(issues, v.Code+": "+v.Message)
				}
			}
			steps = append(steps, traceStep{"step": "safety_check", "attempt": attempt, "safe": len(issues) == 0, "dialect": d.Dialect, "issues": issues, "warnings": []string{}})
			steps = append(steps, traceStep{"step": "policy", "attempt": attempt, "allowed": len(restricted) == 0, "issues": restricted})
		case *event.QueryExecutedData:
			steps = append(steps, traceStep{"step": "execution", "success": true, "rowCount": d.Rows, "truncated": d.Truncated,
				"executionTime": fmt.Sprintf("%.0fms", d.DurationMS), "cached": d.Cached, "result_id": d.ResultID})
		case *event.QueryFailedData:
			steps = append(steps, traceStep{"step": "execution", "success": false, "error": apiError{Kind: d.Kind, Message: d.Message}})
		case *event.ChecksRanData:
			steps = append(steps, traceStep{"step": "verification", "checks": d.Checks, "confidence": d.Confidence})
		case *event.AnswerRenderedData:
			steps = append(steps, traceStep{"step": "summarization", "success": true, "chart": d.Chart})
		case *event.RunFinishedData:
			if interp != nil && interp["success"] == nil {
				interp["success"] = false
				if d.Error != "" {
					interp["error"] = apiError{Kind: d.Kind, Message: d.Error}
				}
			}
		}
	}
	return steps
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// eventLog keeps a run's events in memory.
type eventLog struct {
	events []event.Event
}

// Append keeps events; the recorder hands them over one at a time.
func (l *eventLog) Append(_ context.Context, events ...event.Event) error {
	l.events = append(l.events, events...)
	return nil
}
