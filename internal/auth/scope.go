package auth

import (
	"context"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Scope returns st as the person in each call's context sees it (From):
// the runs they start record them as the owner (run.started's Owner, and
// the sessions they open), and a person who is not an admin reads only
// their own runs, events, results and sessions. Someone else's run, result
// or session is "not found", exactly as one that does not exist, so that
// its ID is not confirmed. A context with no person (sign-in off, the
// CLI) reads and writes as st does.
func Scope(st store.State) store.State { return scoped{st} }

type scoped struct{ store.State }

// limited returns the person whose reads are limited to their own.
func limited(ctx context.Context) (Person, bool) {
	p, ok := From(ctx)
	return p, ok && !p.SeesAll()
}

// Append stamps the person asking into the run.started events that name
// no owner.
func (s scoped) Append(ctx context.Context, events ...event.Event) error {
	if p, ok := From(ctx); ok {
		events = event.StampOwner(p.Name, events)
	}
	return s.State.Append(ctx, events...)
}

// Run returns a run the person may read. A prefix that is ambiguous
// across everyone's runs is resolved among the person's own, so that the
// error never lists other people's run IDs.
func (s scoped) Run(ctx context.Context, runID string) (event.RunState, error) {
	st, err := s.State.Run(ctx, runID)
	p, ok := limited(ctx)
	if !ok {
		return st, err
	}
	if quarry.KindOf(err) == quarry.KindInput {
		mine, lerr := s.State.Runs(ctx, store.RunFilter{Owner: p.Name})
		if lerr != nil {
			return event.RunState{}, lerr
		}
		var ids []string
		for _, r := range mine {
			if strings.HasPrefix(r.RunID, strings.TrimSpace(runID)) {
				st, ids = r, append(ids, r.RunID)
			}
		}
		switch len(ids) {
		case 0:
			return event.RunState{}, store.NoRun(runID)
		case 1:
			return st, nil
		}
		return event.RunState{}, store.AmbiguousID("run", runID, ids[:min(len(ids), 3)])
	}
	if err != nil {
		return st, err
	}
	if st.Owner != p.Name {
		return event.RunState{}, store.NoRun(runID)
	}
	return st, nil
}

// Events returns the log of a run the person may read.
func (s scoped) Events(ctx context.Context, runID string) ([]event.Event, error) {
	if _, ok := limited(ctx); ok {
		st, err := s.Run(ctx, runID)
		if err != nil {
			return nil, err
		}
		runID = st.RunID
	}
	return s.State.Events(ctx, runID)
}

// Runs lists only the person's own runs, unless they see all.
func (s scoped) Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error) {
	if p, ok := limited(ctx); ok {
		f.Owner = p.Name
	}
	return s.State.Runs(ctx, f)
}

// Result returns a result of a run the person may read.
func (s scoped) Result(ctx context.Context, id string) (*quarry.Table, error) {
	if p, ok := limited(ctx); ok {
		mine := false
		for _, runID := range store.ResultRunIDs(id) {
			st, err := s.State.Run(ctx, runID)
			if err == nil && st.RunID == runID && st.Owner == p.Name {
				mine = true
				break
			}
		}
		if !mine {
			return nil, store.NoResult(id)
		}
	}
	return s.State.Result(ctx, id)
}

// CreateSession records the person asking as the session's owner.
func (s scoped) CreateSession(ctx context.Context, sess store.Session) error {
	if p, ok := From(ctx); ok && sess.Owner == "" {
		sess.Owner = p.Name
	}
	return s.State.CreateSession(ctx, sess)
}

// Session returns a session the person may read, resolving an ambiguous
// prefix among their own as Run does.
func (s scoped) Session(ctx context.Context, id string) (store.Session, error) {
	sess, err := s.State.Session(ctx, id)
	p, ok := limited(ctx)
	if !ok {
		return sess, err
	}
	if quarry.KindOf(err) == quarry.KindInput {
		mine, lerr := s.Sessions(ctx, 0)
		if lerr != nil {
			return store.Session{}, lerr
		}
		var ids []string
		for _, m := range mine {
			if strings.HasPrefix(m.ID, strings.TrimSpace(id)) {
				sess, ids = m, append(ids, m.ID)
			}
		}
		switch len(ids) {
		case 0:
			return store.Session{}, store.NoSession(id)
		case 1:
			return sess, nil
		}
		return store.Session{}, store.AmbiguousID("session", id, ids[:min(len(ids), 3)])
	}
	if err != nil {
		return sess, err
	}
	if sess.Owner != p.Name {
		return store.Session{}, store.NoSession(id)
	}
	return sess, nil
}

// Sessions lists only the person's own sessions, unless they see all.
func (s scoped) Sessions(ctx context.Context, limit int) ([]store.Session, error) {
	p, ok := limited(ctx)
	if !ok {
		return s.State.Sessions(ctx, limit)
	}
	all, err := s.State.Sessions(ctx, 0)
	if err != nil {
		return nil, err
	}
	var out []store.Session
	for _, sess := range all {
		if sess.Owner == p.Name {
			out = append(out, sess)
			if limit > 0 && len(out) == limit {
				break
			}
		}
	}
	return out, nil
}
