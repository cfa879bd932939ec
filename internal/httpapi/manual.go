package httpapi

import (
	"context"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// AgentFunc returns the agent for one run, the same one `quarry ask` and
// `quarry run` use, with a func the server calls when the run ends. An
// agent without a connection (agent.Agent.Manual) answers chat questions
// in manual mode: it proposes a query, and a later chat turn with pasted
// results continues the run. An agent with a language model fixes the
// user's SQL that the guard or the database refused.
type AgentFunc func(ctx context.Context) (*agent.Agent, func(), error)

// proposedJSON is the query a manual-mode run asks the user to run.
type proposedJSON struct {
	SQL     string   `json:"sql"`
	Columns []string `json:"columns"` // the columns the query should return, when known
}

// proposals is a sink that keeps the query a run proposes.
type proposals struct {
	mu sync.Mutex
	p  *proposedJSON
}

func (p *proposals) Append(_ context.Context, events ...event.Event) error {
	for _, e := range events {
		if e.Type != event.QueryProposed {
			continue
		}
		if pl, err := event.Decode(e); err == nil {
			d := pl.(*event.QueryProposedData)
			p.mu.Lock()
			p.p = &proposedJSON{SQL: d.SQL, Columns: append([]string{}, d.Columns...)}
			p.mu.Unlock()
		}
	}
	return nil
}

func (p *proposals) get() *proposedJSON {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.p
}

// pastedTurn finds the run a chat turn with pasted results continues: the
// run named by run_id, or the session's newest run that waits for a
// result. It answers the run's events so far.
func (s *Server) pastedTurn(ctx context.Context, req *chatRequest) (string, []event.Event, error) {
	runID := req.RunID
	if runID == "" {
		if req.SessionID == "" {
			return "", nil, errf("results continue a run that waits for them; send its session_id (or run_id) with the results")
		}
		runs, err := s.cfg.Store.Runs(ctx, store.RunFilter{SessionID: req.SessionID, Kind: "ask", Limit: 50})
		if err != nil {
			return "", nil, err
		}
		for _, r := range runs {
			if r.Status == event.StatusAwaitingResults {
				runID = r.RunID
				break
			}
		}
		if runID == "" {
			return "", nil, quarry.Errorf(quarry.KindNotFound, "no run of session %s is waiting for a pasted result; ask a question first", req.SessionID)
		}
	}
	events, err := s.cfg.Store.Events(ctx, runID)
	if err != nil {
		return "", nil, err
	}
	if len(events) == 0 {
		return "", nil, quarry.Errorf(quarry.KindNotFound, "no run %s", runID)
	}
	st, err := event.Fold(events)
	if err != nil {
		return "", nil, err
	}
	if req.SessionID != "" && st.SessionID != "" && st.SessionID != req.SessionID {
		return "", nil, quarry.Errorf(quarry.KindNotFound, "run %s is not part of session %s", runID, req.SessionID)
	}
	if st.Status != event.StatusAwaitingResults {
		return "", nil, quarry.Errorf(quarry.KindInput, "run %s is not waiting for a pasted result (its status is %s)", runID, st.Status)
	}
	return runID, events, nil
}

// resumeRun continues the manual-mode run t.runID with the pasted result,
// on the detached context ctx, as `quarry ask --results` does.
func (s *Server) resumeRun(ctx context.Context, t *askTurn, events []event.Event, pasted string) {
	if s.cfg.Agent == nil {
		t.err = quarry.Errorf(quarry.KindUnsupported, "this server has no agent to continue a manual-mode run")
		return
	}
	ag, release, err := s.cfg.Agent(ctx)
	if err != nil {
		t.err = err
		return
	}
	if release != nil {
		defer release()
	}
	rec := event.ContinueRecorder(events, s.cfg.Clock, event.MultiSink(batched(s.cfg.Store), t.feed))
	t.out, t.err = ag.ResumeWith(ctx, rec, events, []byte(pasted))
	if t.sessionID != "" {
		if err := s.cfg.Store.TouchSession(ctx, t.sessionID, t.runID, "", s.cfg.Clock()); err != nil && t.err == nil {
			t.err = err
		}
	}
}

// questionOf is the question a run asked, from its events.
func questionOf(events []event.Event) string {
	st, err := event.Fold(events)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(st.Question)
}
