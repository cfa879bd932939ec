package httpapi

import (
	"net/http"
	"strings"

	"github.com/quarrydata/quarry/internal/store"
)

// shareRequest is the body of POST /api/runs/{id}/shares.
type shareRequest struct {
	// With are people's names, and groups as "group:NAME".
	With []string `json:"with"`
}

// shareRun shares a run with people and groups, and answers whom it is
// shared with now. With sign-in on, only the run's owner and admins may
// (the store handed in is scoped: auth.Scope).
func (s *Server) shareRun(w http.ResponseWriter, r *http.Request) {
	var req shareRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	if len(req.With) == 0 || len(req.With) > 100 {
		writeError(w, errf(`name whom to share with: {"with": ["bob", "group:support"]} (at most 100)`))
		return
	}
	id := r.PathValue("id")
	at := s.cfg.Clock()
	for _, with := range req.With {
		with = strings.TrimSpace(with)
		if with == "" {
			writeError(w, errf("an empty name in \"with\"; give a person's name or group:NAME"))
			return
		}
		if err := s.cfg.Store.ShareRun(r.Context(), store.Share{RunID: id, With: with, At: at}); err != nil {
			writeError(w, err)
			return
		}
	}
	s.listShares(w, r)
}

// listShares answers whom a run is shared with.
func (s *Server) listShares(w http.ResponseWriter, r *http.Request) {
	shares, err := s.cfg.Store.RunShares(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	if shares == nil {
		shares = []store.Share{}
	}
	writeJSON(w, http.StatusOK, shares)
}

// unshareRun takes back a run's share with one person or group.
func (s *Server) unshareRun(w http.ResponseWriter, r *http.Request) {
	if err := s.cfg.Store.UnshareRun(r.Context(), r.PathValue("id"), r.PathValue("with")); err != nil {
		writeError(w, err)
		return
	}
	s.listShares(w, r)
}
