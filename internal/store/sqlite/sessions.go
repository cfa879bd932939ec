package sqlite

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

// CreateSession stores a new session. The caller makes the ID and the
// times; UpdatedAt defaults to CreatedAt. An ID in use is a KindConflict
// error.
func (s *Store) CreateSession(ctx context.Context, sess store.Session) error {
	if sess.ID == "" || sess.CreatedAt.IsZero() {
		return quarry.Errorf(quarry.KindInternal, "a session needs an ID and a creation time")
	}
	if sess.UpdatedAt.IsZero() {
		sess.UpdatedAt = sess.CreatedAt
	}
	_, err := s.exec(ctx, `INSERT INTO sessions (id, title, last_run_id, from_run_id, owner, tenant, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		sess.ID, sess.Title, sess.LastRunID, sess.FromRunID, sess.Owner, sess.Tenant, store.FormatTime(sess.CreatedAt), store.FormatTime(sess.UpdatedAt))
	if err != nil {
		var n int
		if s.db.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id = ?`, sess.ID).Scan(&n) == nil && n > 0 {
			return quarry.Errorf(quarry.KindConflict, "session %s already exists", sess.ID)
		}
		return s.dbErr(ctx, err, "create session %s", sess.ID)
	}
	return nil
}

// Session returns a session by ID or unique ID prefix.
func (s *Store) Session(ctx context.Context, id string) (store.Session, error) {
	ids, err := s.matchPrefix(ctx, "sessions", "id", id)
	if err != nil {
		return store.Session{}, err
	}
	switch len(ids) {
	case 0:
		return store.Session{}, store.NoSession(id)
	case 1:
	default:
		return store.Session{}, store.AmbiguousID("session", id, ids)
	}
	row := s.db.QueryRowContext(ctx, `SELECT id, title, last_run_id, from_run_id, owner, tenant, created_at, updated_at FROM sessions WHERE id = ?`, ids[0])
	sess, err := scanSession(row)
	if err != nil {
		return store.Session{}, s.dbErr(ctx, err, "read session %s", ids[0])
	}
	return sess, nil
}

// Sessions returns up to limit sessions (all when limit <= 0), the most
// recently updated first.
func (s *Store) Sessions(ctx context.Context, limit int) ([]store.Session, error) {
	q := `SELECT id, title, last_run_id, from_run_id, owner, tenant, created_at, updated_at FROM sessions ORDER BY updated_at DESC, id DESC`
	var args []any
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list sessions")
	}
	defer rows.Close()
	var out []store.Session
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return nil, s.dbErr(ctx, err, "list sessions")
		}
		out = append(out, sess)
	}
	if err := rows.Err(); err != nil {
		return nil, s.dbErr(ctx, err, "list sessions")
	}
	return out, nil
}

// TouchSession records that run runID of session id happened at at: it
// becomes the session's last run and at its update time. A title, when
// non-empty and the session has none yet, is kept (the first question
// usually names a chat).
func (s *Store) TouchSession(ctx context.Context, id, runID, title string, at time.Time) error {
	res, err := s.exec(ctx, `UPDATE sessions SET last_run_id = ?, updated_at = ?,
	title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?`, runID, store.FormatTime(at), title, id)
	if err != nil {
		return s.dbErr(ctx, err, "update session %s", id)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return store.NoSession(id)
	}
	return nil
}

type scanner interface{ Scan(dest ...any) error }

func scanSession(row scanner) (store.Session, error) {
	var sess store.Session
	var created, updated string
	if err := row.Scan(&sess.ID, &sess.Title, &sess.LastRunID, &sess.FromRunID, &sess.Owner, &sess.Tenant, &created, &updated); err != nil {
		return store.Session{}, err
	}
	var err error
	if sess.CreatedAt, err = store.ParseTime(created); err != nil {
		return store.Session{}, err
	}
	if sess.UpdatedAt, err = store.ParseTime(updated); err != nil {
		return store.Session{}, err
	}
	return sess, nil
}
