package httpapi

import (
	"net/http"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/export"
	"github.com/quarrydata/quarry/internal/quarry"
)

// exportRun answers GET /api/runs/{id}/export?format=json|md: the run's
// provenance bundle (export.Bundle), as quarry runs export writes it.
func (s *Server) exportRun(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "json"
	}
	if format != "json" && format != "md" {
		writeError(w, errf("format %q is not known; use json or md", format))
		return
	}
	ctx := r.Context()
	evs, err := s.cfg.Store.Events(ctx, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	st, err := event.Fold(evs)
	if err != nil {
		writeError(w, quarry.Wrap(quarry.KindInternal, err, "the run's log cannot be read"))
		return
	}
	var result *quarry.Table
	if st.ResultID != "" {
		if t, err := s.cfg.Store.Result(ctx, st.ResultID); err == nil {
			result = t
		}
	}
	b, err := export.Build(evs, result, s.cfg.Clock(), s.cfg.Version)
	if err != nil {
		writeError(w, err)
		return
	}
	name := "quarry-" + st.RunID
	if format == "md" {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.md"`)
		w.Write([]byte(export.Markdown(b)))
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.json"`)
	writeJSON(w, http.StatusOK, b)
}

// rerunRun answers POST /api/runs/{id}/rerun: the run's SQL re-executed as
// a new run on the server's connection, and what changed (export.Rerun),
// as quarry runs rerun says it.
func (s *Server) rerunRun(w http.ResponseWriter, r *http.Request) {
	orig, err := s.cfg.Store.Run(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	if orig.SQL == "" || orig.ResultHash == "" {
		writeError(w, quarry.Errorf(quarry.KindInput, "run %s executed no SQL with a recorded result; there is nothing to re-execute", orig.RunID))
		return
	}
	if !s.acquire() {
		tooBusy(w, s.cfg.MaxStreams)
		return
	}
	id := s.cfg.NewID("r")
	ctx, cancel := s.runContext(r)
	s.runs.Add(1)
	func() {
		defer s.runs.Done()
		defer s.release()
		defer cancel()
		runner, closeRun, e := s.start(ctx)
		if e != nil {
			err = e
			return
		}
		defer closeRun()
		_, err = runner.Rerun(ctx, event.NewRecorder(id, s.cfg.Clock, s.cfg.Store), orig)
	}()
	if err != nil && (quarry.KindOf(err) == quarry.KindCanceled || quarry.KindOf(err) == quarry.KindInput || quarry.KindOf(err) == quarry.KindConfig) {
		writeError(w, err)
		return
	}
	again, err := s.cfg.Store.Run(r.Context(), id)
	if err != nil {
		writeError(w, err)
		return
	}
	var knowledgeNow, planNow string
	if k := s.cfg.Knowledge; k != nil {
		knowledgeNow = k.Hash
		if k.Planner != nil && k.Model != nil {
			planNow = export.PlanSQL(k.Planner, k.Model, orig)
		}
	}
	writeJSON(w, http.StatusOK, export.Judge(orig, again, knowledgeNow, planNow))
}
