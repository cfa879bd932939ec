package postgres

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/internal/store"
)

// Heartbeat records that replica id is alive at at (store.Replicas).
func (s *Store) Heartbeat(ctx context.Context, id string, at time.Time) error {
	now := store.FormatTime(at)
	_, err := s.pool.Exec(ctx, `INSERT INTO replicas (id, started_at, seen_at) VALUES ($1, $2, $2)
ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`, id, now)
	if err != nil {
		return s.dbErr(ctx, err, "record that replica %s is alive", id)
	}
	return nil
}

// Replicas returns the last heartbeat of every replica (store.Replicas).
func (s *Store) Replicas(ctx context.Context) (map[string]time.Time, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, seen_at FROM replicas`)
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
	if _, err := s.pool.Exec(ctx, `DELETE FROM replicas WHERE id = $1`, id); err != nil {
		return s.dbErr(ctx, err, "remove replica %s", id)
	}
	return nil
}

// Ping reports whether the state database answers (store.Replicas).
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return s.dbErr(ctx, err, "reach the state database")
	}
	return nil
}

// eventsChannel is the channel on which the state announces each stored
// event, with its run's ID as the payload (migration 00004).
const eventsChannel = "quarry_events"

// Listen calls fn with a run's ID each time an event of that run is
// stored, by any process on this state, until ctx ends. It holds one
// connection of the pool while it listens; when that connection fails it
// connects again, calling fn with "" (anything may have changed meanwhile)
// once it listens again. It returns when ctx ends.
func (s *Store) Listen(ctx context.Context, fn func(runID string)) {
	wait := 100 * time.Millisecond
	for ctx.Err() == nil {
		// A connection that fails is made again; the streams' polling
		// covers the gap.
		s.listenOnce(ctx, fn)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// listenOnce listens on one connection until it fails or ctx ends.
func (s *Store) listenOnce(ctx context.Context, fn func(runID string)) {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return
	}
	conn := c.Hijack() // a listening connection never goes back to the pool
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+eventsChannel); err != nil {
		return
	}
	fn("")
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return
		}
		fn(n.Payload)
	}
}
