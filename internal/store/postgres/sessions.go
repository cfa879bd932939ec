package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/store"
)

const sessionCols = `id, title, last_run_id, from_run_id, owner, tenant, created_at, updated_at`

// CreateSession stores a new session; an ID in use is KindConflict.
func (s *Store) CreateSession(ctx context.Context, sess store.Session) error {
	if sess.ID == "" || sess.CreatedAt.IsZero() {
		return quarry.Errorf(quarry.KindInternal, "a session needs an ID and a creation time")
	}
	if sess.UpdatedAt.IsZero() {
		sess.UpdatedAt = sess.CreatedAt
	}
	const insert = `INSERT INTO sessions (` + sessionCols + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
	args := []any{sess.ID, sess.Title, sess.LastRunID, sess.FromRunID, sess.Owner, sess.Tenant, store.FormatTime(sess.CreatedAt), store.FormatTime(sess.UpdatedAt)}
	// With the runs opening at the same time, in one transaction; alone
	// when that group could not be stored.
	if s.inGroup(ctx, func(b *pgx.Batch) { b.Queue(insert, args...) }) {
		return nil
	}
	_, err := s.pool.Exec(ctx, insert, args...)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return quarry.Errorf(quarry.KindConflict, "session %s already exists", sess.ID)
	}
	if err != nil {
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
	rows, err := s.pool.Query(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = $1`, ids[0])
	if err != nil {
		return store.Session{}, s.dbErr(ctx, err, "read session %s", ids[0])
	}
	sess, err := pgx.CollectExactlyOneRow(rows, scanSession)
	if err != nil {
		return store.Session{}, s.dbErr(ctx, err, "read session %s", ids[0])
	}
	return sess, nil
}

// Sessions returns up to limit sessions (all when limit <= 0), the most
// recently updated first.
func (s *Store) Sessions(ctx context.Context, limit int) ([]store.Session, error) {
	q := `SELECT ` + sessionCols + ` FROM sessions ORDER BY updated_at DESC, id DESC`
	var args []any
	if limit > 0 {
		q += ` LIMIT $1`
		args = append(args, limit)
	}
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list sessions")
	}
	out, err := pgx.CollectRows(rows, scanSession)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list sessions")
	}
	return out, nil
}

// TouchSession makes runID the session's last run at time at, keeping a
// title when the session has none yet.
func (s *Store) TouchSession(ctx context.Context, id, runID, title string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE sessions SET last_run_id = $1, updated_at = $2,
	title = CASE WHEN title = '' THEN $3 ELSE title END WHERE id = $4`, runID, store.FormatTime(at), title, id)
	if err != nil {
		return s.dbErr(ctx, err, "update session %s", id)
	}
	if tag.RowsAffected() == 0 {
		return store.NoSession(id)
	}
	return nil
}

func scanSession(row pgx.CollectableRow) (store.Session, error) {
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
