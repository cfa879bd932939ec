package sqlite

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/store"
)

// Heartbeat records that replica id is alive at at (store.Replicas).
func (s *Store) Heartbeat(ctx context.Context, id string, at time.Time) error {
	now := store.FormatTime(at)
	_, err := s.exec(ctx, `INSERT INTO replicas (id, started_at, seen_at) VALUES (?, ?, ?)
ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`, id, now, now)
	if err != nil {
		return s.dbErr(ctx, err, "record that replica %s is alive", id)
	}
	return nil
}

// Replicas returns the last heartbeat of every replica (store.Replicas).
func (s *Store) Replicas(ctx context.Context) (map[string]time.Time, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, seen_at FROM replicas`)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list the replicas")
	}
	defer rows.Close()
	beats, err := store.ReadBeats(rows)
	if err != nil {
		return nil, s.dbErr(ctx, err, "list the replicas")
	}
	return beats, nil
}

// Leave removes replica id (store.Replicas).
func (s *Store) Leave(ctx context.Context, id string) error {
	if _, err := s.exec(ctx, `DELETE FROM replicas WHERE id = ?`, id); err != nil {
		return s.dbErr(ctx, err, "remove replica %s", id)
	}
	return nil
}

// Ping reports whether the state database answers (store.Replicas).
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return s.dbErr(ctx, err, "reach the state database")
	}
	return nil
}
