package httpapi

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// maxList bounds a listing.
const maxList = 1000

// limitParam reads ?limit=N (default def, at most maxList).
func limitParam(r *http.Request, def int) (int, error) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, errf("limit %q is not a positive whole number", v)
	}
	return min(n, maxList), nil
}

// listRuns answers the newest runs, folded from their logs.
func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) {
	n, err := limitParam(r, 50)
	if err != nil {
		writeError(w, err)
		return
	}
	runs, err := s.cfg.Store.Runs(r.Context(), store.RunFilter{Limit: n})
	if err != nil {
		writeError(w, err)
		return
	}
	if runs == nil {
		runs = []event.RunState{}
	}
	writeJSON(w, http.StatusOK, runs)
}

// getRun answers one run's state.
func (s *Server) getRun(w http.ResponseWriter, r *http.Request) {
	st, err := s.cfg.Store.Run(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// getEvents answers one run's log.
func (s *Server) getEvents(w http.ResponseWriter, r *http.Request) {
	evs, err := s.cfg.Store.Events(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, evs)
}

// listSessions answers the chat sessions, the most recent first.
func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	n, err := limitParam(r, 100)
	if err != nil {
		writeError(w, err)
		return
	}
	ss, err := s.cfg.Store.Sessions(r.Context(), n)
	if err != nil {
		writeError(w, err)
		return
	}
	if ss == nil {
		ss = []store.Session{}
	}
	writeJSON(w, http.StatusOK, ss)
}

// turnJSON is one question of a session and its answer, rebuilt from the
// run's log and stored result.
type turnJSON struct {
	RunID    string `json:"run_id"`
	Kind     string `json:"kind"`
	Question string `json:"question,omitempty"`
	SQL      string `json:"sql,omitempty"`
	Status   string `json:"status"`
	At       string `json:"at,omitempty"`
	// Interpretation is how the question was read (question.read).
	Interpretation *event.ReadingData `json:"interpretation,omitempty"`
	Answer         *answerJSON        `json:"answer,omitempty"`
	Error          *apiError          `json:"error,omitempty"`
}

// getSession answers a session with its turns, oldest first.
func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	sess, err := s.cfg.Store.Session(ctx, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	runs, err := s.cfg.Store.Runs(ctx, store.RunFilter{SessionID: sess.ID})
	if err != nil {
		writeError(w, err)
		return
	}
	// A session that continues a question asked before it existed (quarry
	// ask --continue) begins with that question; runs come newest first.
	if id := sess.FromRunID; id != "" && !slices.ContainsFunc(runs, func(x event.RunState) bool { return x.RunID == id }) {
		if first, err := s.cfg.Store.Run(ctx, id); err == nil {
			runs = append(runs, first)
		}
	}
	turns := make([]turnJSON, 0, len(runs))
	for i := len(runs) - 1; i >= 0; i-- {
		st := runs[i]
		t := turnJSON{RunID: st.RunID, Kind: st.Kind, Question: st.Question, Status: st.Status, Interpretation: st.Reading}
		if st.Kind == "run" {
			t.SQL = st.SQL
		}
		if !st.StartedAt.IsZero() {
			t.At = st.StartedAt.Format("2006-01-02T15:04:05Z07:00")
		}
		switch {
		case st.Status == event.StatusSucceeded:
			var tbl *quarry.Table
			if st.ResultID != "" {
				tbl, _ = s.cfg.Store.Result(ctx, st.ResultID)
			}
			t.Answer = s.rebuiltAnswer(st, tbl)
		case st.Error != "":
			t.Error = &apiError{Kind: st.ErrorKind, Message: st.Error}
		}
		turns = append(turns, t)
	}
	writeJSON(w, http.StatusOK, map[string]any{"session": sess, "turns": turns})
}
