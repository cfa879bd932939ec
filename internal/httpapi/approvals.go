package httpapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Approval mode's routes (docs/approval.md): the statements that wait for
// a person's approval, and the decision on one. The decision is an event
// of the waiting run's log (analyst.Decide); the run polls its log, so a
// decision made on any replica sharing the state store reaches it.

// MayApproveFunc reports whether the person asking (in ctx) may approve
// or refuse a statement that waits, and the reason when not.
type MayApproveFunc func(ctx context.Context) (bool, string)

// approvalsScan bounds the runs GET /api/approvals lists.
const approvalsScan = 500

// approvalJSON is one statement that waits, as GET /api/approvals lists it.
type approvalJSON struct {
	RunID      string `json:"run_id"`
	Connection string `json:"connection,omitempty"`
	event.ApprovalRequestedData
	RequestedAt time.Time `json:"requested_at"`
	// MayDecide says whether the person asking may approve or refuse it.
	MayDecide bool `json:"may_decide"`
}

// decisionRequest is the body of POST /api/runs/{id}/approve and /refuse.
type decisionRequest struct {
	Statement string `json:"statement"`
	Reason    string `json:"reason,omitempty"`
}

// maxReason bounds a decision's reason, in characters.
const maxReason = 500

// mayApprove applies Config.MayApprove; without one (no sign-in: the
// local user is the only person) everyone may.
func (s *Server) mayApprove(ctx context.Context) (bool, string) {
	if s.cfg.MayApprove == nil {
		return true, ""
	}
	return s.cfg.MayApprove(ctx)
}

// listApprovals answers the statements that wait for approval among the
// runs the person asking may read (an admin's, everyone's; anyone else's,
// their own: their waiting notice), from the runs index.
func (s *Server) listApprovals(w http.ResponseWriter, r *http.Request) {
	runs, err := s.cfg.Store.Runs(r.Context(), store.RunFilter{Status: event.StatusAwaitingApproval, Limit: approvalsScan})
	if err != nil {
		writeError(w, err)
		return
	}
	may, _ := s.mayApprove(r.Context())
	now := s.cfg.Clock()
	out := []approvalJSON{}
	for _, st := range runs {
		// A wait past its deadline has ended, or its process died
		// waiting: nobody can decide it any more.
		if p := st.Pending(); p != nil && st.Status == event.StatusAwaitingApproval && now.Before(p.Deadline) {
			out = append(out, approvalJSON{RunID: st.RunID, Connection: st.Connection, ApprovalRequestedData: p.ApprovalRequestedData,
				RequestedAt: p.RequestedAt, MayDecide: may})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// approveRun and refuseRun decide a statement that waits in a run.
func (s *Server) approveRun(w http.ResponseWriter, r *http.Request) { s.decide(w, r, true) }
func (s *Server) refuseRun(w http.ResponseWriter, r *http.Request)  { s.decide(w, r, false) }

func (s *Server) decide(w http.ResponseWriter, r *http.Request, approved bool) {
	ctx := r.Context()
	if ok, why := s.mayApprove(ctx); !ok {
		writeErrorStatus(w, http.StatusForbidden, quarry.Errorf(quarry.KindForbidden, "%s", why))
		return
	}
	var req decisionRequest
	if st, err := decodeJSON(w, r, &req); err != nil {
		writeErrorStatus(w, st, err)
		return
	}
	req.Statement = strings.TrimSpace(req.Statement)
	if req.Statement == "" {
		writeError(w, errf("statement is empty; send the id of the statement that waits (\"s1\"), as GET /api/approvals lists it"))
		return
	}
	reason := strings.TrimSpace(req.Reason)
	if len([]rune(reason)) > maxReason {
		writeError(w, errf("the reason is longer than %d characters; say it shorter", maxReason))
		return
	}
	// The run as the person asking may read it: someone else's run is
	// not found for anyone but an admin.
	st, err := s.cfg.Store.Run(ctx, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	by := event.OwnerOf(ctx)
	if by == "" {
		by = "local user"
	}
	after, err := analyst.Decide(ctx, s.cfg.Store, st.RunID, req.Statement,
		event.ApprovalDecidedData{Approved: approved, By: by, Reason: reason}, s.cfg.Clock())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, after)
}
