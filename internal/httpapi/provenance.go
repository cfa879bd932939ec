package httpapi

import (
	"context"
	"net/http"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/export"
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
	b, err := export.Read(r.Context(), s.cfg.Store, r.PathValue("id"), s.cfg.Clock(), s.cfg.Version)
	if err != nil {
		writeError(w, err)
		return
	}
	name := "quarry-" + b.Run.RunID
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
	var judged export.Rerun
	var err error
	ran := s.inSlot(w, r, func(ctx context.Context) {
		runner, closeRun, e := s.start(ctx)
		if e != nil {
			err = e
			return
		}
		defer closeRun()
		k, e := s.cfg.Knowledge(ctx)
		if e != nil {
			err = e
			return
		}
		rec := event.NewRecorder(s.cfg.NewID("r"), s.cfg.Clock, s.cfg.Store)
		judged, err = runner.RerunJudged(ctx, rec, s.cfg.Store, k, r.PathValue("id"))
	})
	if !ran {
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, judged)
}
