package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/sqlguard"
)

// runRequest is the body of POST /api/run: the user's own SQL.
type runRequest struct {
	SQL       string `json:"sql"`
	SessionID string `json:"session_id,omitempty"`
	// FixOf names the failed run whose proposed fix sql is: the fix is
	// recorded as accepted there and runs, guarded again, as a new run.
	FixOf string `json:"fix_of,omitempty"`
}

// runResponse is what POST /api/run answers.
type runResponse struct {
	RunID     string            `json:"run_id"`
	Status    string            `json:"status"`
	Guard     *sqlguard.Verdict `json:"guard,omitempty"`
	Columns   []columnJSON      `json:"columns"`
	Rows      [][]any           `json:"rows"` // the first rows, at most 100
	RowCount  int64             `json:"row_count"`
	Truncated bool              `json:"truncated"`
	ResultID  string            `json:"result_id,omitempty"`
	FixOf     string            `json:"fix_of,omitempty"`
	Error     *apiError         `json:"error,omitempty"`
	Fix       *fixJSON          `json:"fix,omitempty"`
}

// fixJSON is the fix proposed for SQL the guard or the database refused.
// It is not run: the client sends it back with fix_of to run it.
type fixJSON struct {
	Proposed bool              `json:"proposed"`
	SQL      string            `json:"sql,omitempty"`
	Diff     string            `json:"diff,omitempty"`
	Guard    *sqlguard.Verdict `json:"guard,omitempty"` // the guard's verdict on the fix
	Allowed  bool              `json:"allowed"`         // whether the guard lets the fix run
	Reason   string            `json:"reason,omitempty"`
}

// runSQL runs the user's own statement through the guard, read-only, and
// answers the first rows; the full result is at /api/results/{id}.
func (s *Server) runSQL(w http.ResponseWriter, r *http.Request) {
	var req runRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	if strings.TrimSpace(req.SQL) == "" {
		writeError(w, errf("sql is empty; send the statement as \"sql\""))
		return
	}
	sessionID := ""
	if req.SessionID != "" {
		sess, err := s.cfg.Store.Session(r.Context(), req.SessionID)
		if err != nil {
			writeError(w, err)
			return
		}
		sessionID = sess.ID
	}
	var fixOf []event.Event
	if req.FixOf != "" {
		evs, err := s.proposedFix(r.Context(), req.FixOf, req.SQL)
		if err != nil {
			writeError(w, err)
			return
		}
		fixOf = evs
	}
	resp := runResponse{RunID: s.cfg.NewID("r"), Columns: []columnJSON{}, Rows: [][]any{}, FixOf: req.FixOf}
	sink := &previewSink{}
	var err error
	ran := s.inSlot(w, r, func(ctx context.Context) {
		runner, closeRun, e := s.start(ctx)
		if e != nil {
			err = e
			return
		}
		defer closeRun()
		var sinkTo event.Sink = s.cfg.Store
		if sessionID != "" {
			sinkTo = event.WithSession(sessionID, s.cfg.Store)
		}
		if fixOf != nil {
			s.acceptFix(ctx, fixOf, req.SQL)
		}
		rec := event.NewRecorder(resp.RunID, s.cfg.Clock, sinkTo)
		out, e := runner.Run(ctx, rec, req.SQL, sink)
		err = e
		if out != nil {
			v := out.Verdict
			resp.Guard = &v
			resp.RowCount, resp.Truncated, resp.ResultID = out.Rows, out.Truncated, out.ResultID
		}
		if err != nil && fixOf == nil {
			resp.Fix = s.fix(ctx, rec, req.SQL, out, err)
		}
		if sessionID != "" {
			if e := s.cfg.Store.TouchSession(ctx, sessionID, resp.RunID, "", s.cfg.Clock()); e != nil && err == nil {
				err = e
			}
		}
	})
	if !ran {
		return
	}
	for _, c := range sink.cols {
		resp.Columns = append(resp.Columns, columnJSON{Name: c.Name, Type: c.Type})
	}
	resp.Rows = append(resp.Rows, sink.rows...)
	status := http.StatusOK
	resp.Status = event.StatusSucceeded
	if err != nil {
		e := errorBody(err)
		resp.Error = &e
		resp.Status = runStatus(quarry.KindOf(err))
		status = Status(quarry.KindOf(err))
	}
	writeJSON(w, status, resp)
}

func runStatus(k quarry.Kind) string {
	switch k {
	case quarry.KindRejected, quarry.KindForbidden:
		return event.StatusRejected
	case quarry.KindCanceled:
		return event.StatusCanceled
	}
	return event.StatusFailed
}

// previewSink keeps the first rows of a result as JSON values.
type previewSink struct {
	cols []quarry.Column
	rows [][]any
}

func (p *previewSink) Begin(cols []quarry.Column) error {
	p.cols = cols
	return nil
}

func (p *previewSink) Row(vals []any) error {
	if len(p.rows) < previewRows {
		p.rows = append(p.rows, jsonRow(vals))
	}
	return nil
}
