package replica

import (
	"context"
	"sync"
	"time"
)

// Hub wakes the streams watching a run when its log may have grown: on a
// notification for that run (Notify, fed by PostgreSQL's LISTEN), on a
// notification for every run (Notify("")), and on every tick of Poll.
// Wake-ups never block; a watcher that is behind gets one.
type Hub struct {
	mu       sync.Mutex
	watchers map[string]map[chan struct{}]struct{}
}

// NewHub returns a Hub with no watchers.
func NewHub() *Hub { return &Hub{watchers: map[string]map[chan struct{}]struct{}{}} }

// Watch returns a channel that receives when runID's log may have grown,
// and a func that stops watching.
func (h *Hub) Watch(runID string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.watchers[runID] == nil {
		h.watchers[runID] = map[chan struct{}]struct{}{}
	}
	h.watchers[runID][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.watchers[runID], ch)
		if len(h.watchers[runID]) == 0 {
			delete(h.watchers, runID)
		}
		h.mu.Unlock()
	}
}

// Notify wakes the watchers of runID, or of every run when runID is "".
func (h *Hub) Notify(runID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if runID != "" {
		for ch := range h.watchers[runID] {
			wake(ch)
		}
		return
	}
	for _, ws := range h.watchers {
		for ch := range ws {
			wake(ch)
		}
	}
}

func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Poll wakes every watcher every interval until ctx ends: the way a stream
// learns of new events on a state without notifications (SQLite), and a
// safety net on one with them.
func (h *Hub) Poll(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.Notify("")
		}
	}
}
