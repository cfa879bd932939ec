package store

import (
	"context"
	"time"
)

// Replicas is the part of a state that quarry serve processes sharing it
// (replicas) use to know of each other: each says it is alive every few
// seconds, and a run a replica started is finished as failed by the others
// once that replica has been silent too long. Both backends implement it.
type Replicas interface {
	// Heartbeat records that replica id is alive at at; the first call
	// also records when it started.
	Heartbeat(ctx context.Context, id string, at time.Time) error
	// Replicas returns the last heartbeat of every replica that has not
	// left.
	Replicas(ctx context.Context) (map[string]time.Time, error)
	// Leave removes replica id, which stopped cleanly: a running run that
	// still names it was left by a process that is gone.
	Leave(ctx context.Context, id string) error
	// Ping reports whether the state database answers.
	Ping(ctx context.Context) error
}

// ReadBeats reads rows of (id, seen_at) into Replicas' map. The caller
// closes rows.
func ReadBeats(rows EventRows) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	for rows.Next() {
		var id, seen string
		if err := rows.Scan(&id, &seen); err != nil {
			return nil, err
		}
		t, err := ParseTime(seen)
		if err != nil {
			return nil, err
		}
		out[id] = t
	}
	return out, rows.Err()
}
