package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// feedbackRequest is the body of POST /api/feedback.
type feedbackRequest struct {
	RunID   string `json:"run_id"`
	Vote    string `json:"vote"` // "up" or "down"
	Comment string `json:"comment,omitempty"`
}

// ownedRuns is a store that tells the runs a person may act on as their
// owner from those they only read (auth.Scope's).
type ownedRuns interface {
	Owned(ctx context.Context, runID string) (event.RunState, error)
}

// pendingDir is where suggested verified queries wait for a person, under
// the knowledge folder (not loaded as verified).
const pendingDir = "examples/_pending"

// feedback takes a thumbs up or down on an answer. An up on an answered
// question writes its question and SQL as a pending verified query, for a
// person to check, sign (verified_by, verified_at) and move to examples/.
func (s *Server) feedback(w http.ResponseWriter, r *http.Request) {
	var req feedbackRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	if req.Vote != "up" && req.Vote != "down" {
		writeError(w, errf("vote %q is not known; send \"up\" or \"down\"", req.Vote))
		return
	}
	if req.RunID == "" {
		writeError(w, errf("run_id is empty; send the run the vote is about"))
		return
	}
	read := s.cfg.Store.Run
	if o, ok := s.cfg.Store.(ownedRuns); ok {
		// A vote is the asker's (or an admin's): one a run was shared
		// with reads it, and does not file a verified query in its name.
		read = o.Owned
	}
	st, err := read(r.Context(), req.RunID)
	if err != nil {
		writeError(w, err)
		return
	}
	resp := map[string]any{"ok": true}
	if req.Vote == "up" {
		if st.Kind != "ask" || st.Status != event.StatusSucceeded || st.SQL == "" {
			writeError(w, quarry.Errorf(quarry.KindInput, "run %s is not an answered question; only answers can become verified queries", st.RunID))
			return
		}
		if s.cfg.KnowledgeDir == "" {
			writeError(w, quarry.Errorf(quarry.KindUnsupported, "this server has no knowledge folder to keep the suggestion in"))
			return
		}
		rel := filepath.ToSlash(filepath.Join(pendingDir, st.RunID+".yaml"))
		if err := s.writePending(filepath.Join(s.cfg.KnowledgeDir, filepath.FromSlash(rel)), st, req.Comment); err != nil {
			writeError(w, err)
			return
		}
		resp["pending_file"] = "knowledge/" + rel
	}
	writeJSON(w, http.StatusOK, resp)
}

// writePending writes a verified-query file (docs/knowledge.md) with the
// fields a person fills in left empty.
func (s *Server) writePending(path string, st event.RunState, comment string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Suggested by a thumbs-up in quarry serve on %s (run %s).\n", s.cfg.Clock().UTC().Format("2006-01-02"), st.RunID)
	b.WriteString("# Check the SQL, fill in verified_by and verified_at, and move this file to examples/.\n")
	fmt.Fprintf(&b, "- question: %s\n", yamlString(st.Question))
	b.WriteString("  sql: |\n")
	for line := range strings.Lines(strings.TrimRight(st.SQL, "\n") + "\n") {
		b.WriteString("    " + line)
	}
	b.WriteString("  verified_by: \"\"\n  verified_at: \"\"\n")
	notes := "From run " + st.RunID
	if c := strings.TrimSpace(comment); c != "" {
		notes += ": " + c
	}
	fmt.Fprintf(&b, "  notes: %s\n", yamlString(notes))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot create %s", pendingDir)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return quarry.Wrap(quarry.KindInternal, err, "cannot write the pending verified query")
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return quarry.Wrap(quarry.KindInternal, err, "cannot write the pending verified query")
	}
	return nil
}

// yamlString quotes s as a YAML double-quoted scalar (JSON's escapes are
// YAML's), on one line.
func yamlString(s string) string {
	b, _ := json.Marshal(strings.Join(strings.Fields(s), " "))
	return string(b)
}
