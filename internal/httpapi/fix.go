package httpapi

import (
	"context"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/analyst"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// noModelFix says why no fix is proposed on a server without a model.
const noModelFix = "no language model is configured, so quarry proposes no fix; configure one (model.provider in quarry.yaml, or ANTHROPIC_API_KEY / OPENAI_API_KEY) to get fixes"

// fix asks the agent's fixer, as `quarry run` does, for a fix of sql after
// the guard or the database refused it. The fixer sees the SQL and the
// error text only; the fix is guarded but not run. It answers nil for
// failures a fix cannot help (a timeout, a canceled run).
func (s *Server) fix(ctx context.Context, rec *event.Recorder, sql string, out *analyst.RunOutcome, runErr error) *fixJSON {
	kind := quarry.KindOf(runErr)
	if kind != quarry.KindRejected && kind != quarry.KindQuery {
		return nil
	}
	if s.cfg.Agent == nil {
		return &fixJSON{Reason: noModelFix}
	}
	ag, release, err := s.cfg.Agent(ctx)
	if err != nil {
		return &fixJSON{Reason: "no fix: " + quarry.Message(err)}
	}
	if release != nil {
		defer release()
	}
	if ag == nil || ag.Gateway == nil {
		return &fixJSON{Reason: noModelFix}
	}
	errText := quarry.Message(runErr)
	if kind == quarry.KindRejected && out != nil && !out.Verdict.Allowed {
		errText = "the read-only guard refused it: " + out.Verdict.String()
	}
	f, err := ag.Fix(ctx, rec, sql, errText)
	if err != nil {
		return &fixJSON{Reason: quarry.Message(err)}
	}
	v := f.Verdict
	j := &fixJSON{Proposed: true, SQL: f.SQL, Diff: f.Diff, Guard: &v, Allowed: v.Allowed}
	if !v.Allowed {
		j.Reason = "the guard refuses the fix too, so it cannot run: " + v.String()
	}
	return j
}

// proposedFix checks that sql is the fix proposed in run runID, and
// answers that run's events.
func (s *Server) proposedFix(ctx context.Context, runID, sql string) ([]event.Event, error) {
	events, err := s.cfg.Store.Events(ctx, runID)
	if err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, quarry.Errorf(quarry.KindNotFound, "no run %s", runID)
	}
	for _, e := range events {
		if e.Type != event.FixProposed {
			continue
		}
		if pl, err := event.Decode(e); err == nil && pl.(*event.FixProposedData).SQL == sql {
			return events, nil
		}
	}
	return nil, errf("run %s proposed no such fix; send the fixed sql exactly as the fix gave it", runID)
}

// acceptFix records, in the failed run's log, that the user accepted its
// fix, as `quarry run` does when the user says yes.
func (s *Server) acceptFix(ctx context.Context, events []event.Event, sql string) {
	var f agent.Fix
	for _, e := range events {
		if e.Type != event.FixProposed {
			continue
		}
		if pl, err := event.Decode(e); err == nil {
			d := pl.(*event.FixProposedData)
			if d.SQL == sql {
				f = agent.Fix{SQL: d.SQL, Diff: d.Diff}
				f.Verdict.Allowed = d.Allowed
			}
		}
	}
	if s.cfg.Agent == nil {
		return
	}
	ag, release, err := s.cfg.Agent(ctx)
	if err != nil || ag == nil {
		return
	}
	if release != nil {
		defer release()
	}
	last := events[0].Seq
	for _, e := range events {
		last = max(last, e.Seq)
	}
	rec := event.ResumeRecorder(events[0].RunID, last, s.cfg.Clock, s.cfg.Store)
	_ = ag.Accepted(ctx, rec, &f, true)
}
