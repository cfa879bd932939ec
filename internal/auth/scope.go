package auth

import (
	"context"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// Scope returns st as the person in each call's context sees it (From):
// the runs they start record them as the owner (run.started's Owner, and
// the sessions they open), and a person who is not an admin reads only
// their own runs, events, results and sessions, and the runs (with their
// events and results) shared with them or a group they are in. Someone else's run, result
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
		// Among the runs they may read only (their own and those shared
		// with them), so that whether a prefix is taken by someone
		// else's run never shows.
		mine, lerr := s.State.Runs(ctx, store.RunFilter{Owner: p.Name, SharedWith: p.Grantees()})
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
		shared, err := s.sharedWith(ctx, p, st.RunID)
		if err != nil {
			return event.RunState{}, err
		}
		if !shared {
			return event.RunState{}, store.NoRun(runID)
		}
	}
	return st, nil
}

// Grantees are the names under which runs are shared with p: their own,
// and each of their groups' (store.GroupGrantee, lower case).
func (p Person) Grantees() []string {
	out := []string{p.Name}
	for _, g := range p.Groups {
		out = append(out, GroupGrantee(g))
	}
	return out
}

// GroupGrantee is how a share names the group g.
func GroupGrantee(g string) string { return store.GroupGrantee + strings.ToLower(g) }

// sharedWith reports whether runID is shared with p or a group of theirs.
func (s scoped) sharedWith(ctx context.Context, p Person, runID string) (bool, error) {
	shares, err := s.State.RunShares(ctx, runID)
	if err != nil {
		return false, err
	}
	for _, sh := range shares {
		if slices.Contains(p.Grantees(), sh.With) {
			return true, nil
		}
	}
	return false, nil
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

// Runs lists only the person's own runs and those shared with them,
// unless they see all.
func (s scoped) Runs(ctx context.Context, f store.RunFilter) ([]event.RunState, error) {
	if p, ok := limited(ctx); ok {
		f.Owner, f.SharedWith = p.Name, p.Grantees()
	}
	return s.State.Runs(ctx, f)
}

// Result returns a result of a run the person may read.
func (s scoped) Result(ctx context.Context, id string) (*quarry.Table, error) {
	if p, ok := limited(ctx); ok {
		mine := false
		for _, runID := range store.ResultRunIDs(id) {
			st, err := s.State.Run(ctx, runID)
			if err != nil && quarry.KindOf(err) != quarry.KindNotFound {
				// The run could not be read (the knowledge folder does
				// not load): that error, not "no result" (found from
				// outside).
				return nil, err
			}
			if err != nil || st.RunID != runID {
				continue
			}
			if st.Owner == p.Name {
				mine = true
				break
			}
			if shared, err := s.sharedWith(ctx, p, runID); err != nil {
				return nil, err
			} else if shared {
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

// ShareRun shares a run the person owns (any run, for an admin) with a
// person of the state or a group ("group:NAME"), recording them as the
// one who shared it. Someone else's run is "not found" when they cannot
// read it, and forbidden when it was shared with them.
func (s scoped) ShareRun(ctx context.Context, sh store.Share) error {
	st, err := s.mayShare(ctx, sh.RunID)
	if err != nil {
		return err
	}
	sh.RunID = st.RunID
	if p, ok := From(ctx); ok {
		sh.By = p.Name
	}
	if g, ok := strings.CutPrefix(sh.With, store.GroupGrantee); ok {
		g = strings.TrimSpace(g)
		if !quarry.PersonName(g) {
			return quarry.Errorf(quarry.KindInput, "%q is not a group name quarry takes: use letters, digits and . _ @ -", g)
		}
		sh.With = GroupGrantee(g)
	} else if _, err := s.State.User(ctx, sh.With); err != nil {
		if quarry.KindOf(err) == quarry.KindNotFound {
			return quarry.Errorf(quarry.KindInput, "no person %q to share with; give a person's name, or group:NAME for a group", sh.With)
		}
		return err
	}
	return s.State.ShareRun(ctx, sh)
}

// UnshareRun takes back a share of a run the person owns (any run, for
// an admin).
func (s scoped) UnshareRun(ctx context.Context, runID, with string) error {
	st, err := s.mayShare(ctx, runID)
	if err != nil {
		return err
	}
	with = strings.TrimSpace(with)
	if g, ok := strings.CutPrefix(with, store.GroupGrantee); ok {
		with = GroupGrantee(strings.TrimSpace(g))
	}
	return s.State.UnshareRun(ctx, st.RunID, with)
}

// RunShares returns whom a run the person may read is shared with.
func (s scoped) RunShares(ctx context.Context, runID string) ([]store.Share, error) {
	st, err := s.Run(ctx, runID)
	if err != nil {
		return nil, err
	}
	return s.State.RunShares(ctx, st.RunID)
}

// Owned returns a run the person may act on as its owner (share it, vote
// on its answer): their own, any for an admin, any when nobody signed
// in. A run shared with them they read but do not act on (KindForbidden);
// one they cannot read is not found.
func (s scoped) Owned(ctx context.Context, runID string) (event.RunState, error) {
	st, err := s.Run(ctx, runID)
	if err != nil {
		return st, err
	}
	if p, ok := limited(ctx); ok && st.Owner != p.Name {
		return event.RunState{}, quarry.Errorf(quarry.KindForbidden, "run %s is %s's: it was shared with you to read; only they or an admin act on it", st.RunID, st.Owner)
	}
	return st, nil
}

// mayShare returns the run when the person may change whom it is shared
// with: its owner, an admin, or anyone when nobody signed in.
func (s scoped) mayShare(ctx context.Context, runID string) (event.RunState, error) {
	st, err := s.Run(ctx, runID)
	if err != nil {
		return st, err
	}
	if p, ok := limited(ctx); ok && st.Owner != p.Name {
		return event.RunState{}, quarry.Errorf(quarry.KindForbidden, "only the person who asked (%s) or an admin shares run %s", st.Owner, st.RunID)
	}
	return st, nil
}
