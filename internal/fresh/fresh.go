// Package fresh shares one check among the callers that wait on it. A
// caller takes the result of a check that began after it asked, so the
// answer saw everything that happened before the caller did, exactly as
// if it had checked alone; a burst of callers runs the check twice, one
// after the other, instead of once each.
//
// quarry serve checks two things before every request: whether its
// knowledge folder's files changed, and whether the state has people (so
// that sign-in is required). Under a burst of chat streams each check,
// once per request and behind one lock or a few database connections,
// was most of the time to a stream's first event.
package fresh

import (
	"context"
	"sync"
)

// Check runs a check for the callers of Do. The zero value is ready; a
// Check must not be copied after first use.
type Check[T any] struct {
	mu    sync.Mutex
	begun uint64   // checks begun
	cur   *call[T] // the check running, or nil
	last  *call[T] // the last check that ended, or nil
}

// call is one run of a check.
type call[T any] struct {
	n    uint64
	done chan struct{}
	val  T
	err  error
}

// Do returns the result of a run of fn that began after Do was called:
// another caller's, when one began while this caller waited, or its own.
// A run that failed is not shared: a caller that wanted it runs fn again
// (another caller's context may have ended). Do returns ctx's error when
// ctx ends while it waits for another caller's run.
func (c *Check[T]) Do(ctx context.Context, fn func(context.Context) (T, error)) (T, error) {
	c.mu.Lock()
	want := c.begun + 1
	for {
		if l := c.last; l != nil && l.n >= want && l.err == nil {
			c.mu.Unlock()
			return l.val, nil
		}
		cur := c.cur
		if cur == nil {
			break
		}
		c.mu.Unlock()
		select {
		case <-cur.done:
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
		c.mu.Lock()
	}
	c.begun++
	cl := &call[T]{n: c.begun, done: make(chan struct{})}
	c.cur = cl
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.cur, c.last = nil, cl
		c.mu.Unlock()
		close(cl.done)
	}()
	cl.val, cl.err = fn(ctx)
	return cl.val, cl.err
}
