package runtime

import (
	"context"
	"slices"

	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// session resolves the conversation a question belongs to: --session ID
// (created when new), --continue (the newest question's session, or a new
// one that continues it), or, in a terminal, an offer to continue a
// question under a day old. It returns "" for a question on its own, and
// the earlier turns.
func (r *Runtime) session(ctx context.Context, st store.State, req AskRequest) (string, []agent.Turn, error) {
	switch {
	case req.Session != "":
		if _, err := st.Session(ctx, req.Session); err != nil {
			if quarry.KindOf(err) != quarry.KindNotFound {
				return "", nil, err
			}
			if err := st.CreateSession(ctx, store.Session{ID: req.Session, CreatedAt: r.o.Now()}); err != nil {
				return "", nil, err
			}
		}
		return r.turns(ctx, st, req.Session, nil)
	case req.Continue:
		last, err := r.lastQuestion(ctx, st)
		if err != nil {
			return "", nil, err
		}
		if last == nil {
			return "", nil, quarry.Errorf(quarry.KindNotFound, "there is no earlier question to continue; ask one first")
		}
		return r.continueFrom(ctx, st, last)
	case req.Offer != nil:
		last, err := r.lastQuestion(ctx, st)
		if err != nil || last == nil || r.o.Now().Sub(last.StartedAt) > offerWithin || !req.Offer(*last) {
			return "", nil, nil
		}
		return r.continueFrom(ctx, st, last)
	}
	return "", nil, nil
}

// lastQuestion returns the newest question of the project, or nil.
func (r *Runtime) lastQuestion(ctx context.Context, st store.State) (*event.RunState, error) {
	runs, err := st.Runs(ctx, store.RunFilter{Kind: "ask", Limit: 1})
	if err != nil || len(runs) == 0 {
		return nil, err
	}
	return &runs[0], nil
}

// continueFrom returns the session of run last, or a new one that starts
// from it.
func (r *Runtime) continueFrom(ctx context.Context, st store.State, last *event.RunState) (string, []agent.Turn, error) {
	if last.SessionID != "" {
		if _, err := st.Session(ctx, last.SessionID); err == nil {
			return r.turns(ctx, st, last.SessionID, nil)
		}
	}
	id := r.NewID("s")
	if err := st.CreateSession(ctx, store.Session{ID: id, Title: last.Question, LastRunID: last.RunID, FromRunID: last.RunID, CreatedAt: r.o.Now()}); err != nil {
		return "", nil, err
	}
	return r.turns(ctx, st, id, last)
}

// turns reads a session's earlier questions; seed, when not nil, is a
// question asked before the session existed. A session made to continue
// such a question (Session.FromRunID) always has it as its first turn.
func (r *Runtime) turns(ctx context.Context, st store.State, id string, seed *event.RunState) (string, []agent.Turn, error) {
	runs, err := st.Runs(ctx, store.RunFilter{SessionID: id, Kind: "ask"})
	if err != nil {
		return "", nil, err
	}
	if seed == nil {
		if sess, err := st.Session(ctx, id); err == nil && sess.FromRunID != "" && !slices.ContainsFunc(runs, func(x event.RunState) bool { return x.RunID == sess.FromRunID }) {
			if first, err := st.Run(ctx, sess.FromRunID); err == nil {
				seed = &first
			}
		}
	}
	if seed != nil {
		runs = append(runs, *seed)
	}
	return id, agent.History(runs), nil
}
