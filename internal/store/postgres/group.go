package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// group commits together the statements of the requests that arrive at
// once: a run's first events with its index entry, and a new session.
// Those are what a chat stream waits for before its first event, and a
// burst of streams used to pay a round trip and a transaction each, in
// turn, on the pool's few connections. The first request of a burst
// starts a flusher; while its batch is on the wire the next requests
// queue, and the next batch takes them all. A batch is one implicit
// transaction (its statements go with one Sync): all of it is stored, or
// none, and then each request goes its own way again, as if alone.
type group struct {
	mu       sync.Mutex
	queue    []*grouped
	flushing bool
}

// grouped is one request's statements in a group.
type grouped struct {
	queue func(b *pgx.Batch)
	done  chan bool // true: stored with the group
}

// maxGroup bounds the requests in one batch (and one transaction).
const maxGroup = 64

// groupTimeout bounds a batch, which runs for no one request.
const groupTimeout = 30 * time.Second

// inGroup stores the statements queue adds as part of the next group,
// and reports whether they were stored. False: nothing of them was (the
// group's batch failed, maybe for another request's statements, or ctx
// had ended), and the caller stores them on its own. Once queued, they
// are stored or not whatever becomes of ctx.
func (s *Store) inGroup(ctx context.Context, queue func(b *pgx.Batch)) bool {
	if ctx.Err() != nil {
		return false
	}
	r := &grouped{queue: queue, done: make(chan bool, 1)}
	g := &s.group
	g.mu.Lock()
	g.queue = append(g.queue, r)
	lead := !g.flushing
	g.flushing = true
	g.mu.Unlock()
	if lead {
		go s.flushGroups()
	}
	return <-r.done
}

// flushGroups sends the queued requests in batches until none is left.
func (s *Store) flushGroups() {
	g := &s.group
	for {
		g.mu.Lock()
		n := min(len(g.queue), maxGroup)
		if n == 0 {
			g.flushing = false
			g.mu.Unlock()
			return
		}
		rs := g.queue[:n:n]
		g.queue = g.queue[n:]
		g.mu.Unlock()
		ok := s.sendGroup(rs)
		for _, r := range rs {
			r.done <- ok
		}
	}
}

// sendGroup runs the requests' statements as one batch and reports
// whether all of them were stored.
func (s *Store) sendGroup(rs []*grouped) bool {
	ctx, cancel := context.WithTimeout(context.Background(), groupTimeout)
	defer cancel()
	b := &pgx.Batch{}
	for _, r := range rs {
		r.queue(b)
	}
	br := s.pool.SendBatch(ctx, b)
	var err error
	for range b.Len() {
		if _, err = br.Exec(); err != nil {
			break
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return err == nil
}
