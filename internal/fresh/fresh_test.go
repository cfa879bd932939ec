package fresh

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// TestSharedWithThoseWhoWaited: callers that arrive while a check runs
// never take that check's answer (it may predate what they saw), and all
// of them share the one next check.
func TestSharedWithThoseWhoWaited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c Check[int]
		var runs atomic.Int64
		release := make(chan struct{})
		fn := func(context.Context) (int, error) {
			n := int(runs.Add(1))
			if n == 1 {
				<-release
			}
			return n, nil
		}
		first := make(chan int)
		go func() {
			v, _ := c.Do(t.Context(), fn)
			first <- v
		}()
		synctest.Wait() // the first check runs, held
		const waiters = 50
		got := make([]int, waiters)
		var wg sync.WaitGroup
		for i := range waiters {
			wg.Go(func() {
				v, err := c.Do(t.Context(), fn)
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			})
		}
		synctest.Wait() // every waiter waits on the first check
		close(release)
		if v := <-first; v != 1 {
			t.Errorf("the first caller got run %d, want 1", v)
		}
		wg.Wait()
		for i, v := range got {
			if v != 2 {
				t.Errorf("waiter %d got run %d, want 2 (a run that began after it asked)", i, v)
			}
		}
		if n := runs.Load(); n != 2 {
			t.Errorf("%d runs for 51 callers in two waves, want 2", n)
		}
		// A caller after all that runs the check again.
		if v, _ := c.Do(t.Context(), fn); v != 3 {
			t.Errorf("a later caller got run %d, want 3", v)
		}
	})
}

// TestFailureNotShared: a run that failed (say, its caller's context
// ended) is not handed to the callers that waited for it.
func TestFailureNotShared(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c Check[int]
		var runs atomic.Int64
		release := make(chan struct{})
		fn := func(context.Context) (int, error) {
			n := int(runs.Add(1))
			switch n {
			case 1:
				<-release
			case 2:
				return 0, errors.New("the state is unreachable")
			}
			return n, nil
		}
		go c.Do(t.Context(), fn)
		synctest.Wait()
		errs := make(chan error, 2)
		vals := make(chan int, 2)
		for range 2 {
			go func() {
				v, err := c.Do(t.Context(), fn)
				errs <- err
				vals <- v
			}()
		}
		synctest.Wait()
		close(release)
		var failed, ok int
		for range 2 {
			if err := <-errs; err != nil {
				failed++
			} else {
				ok++
			}
			<-vals
		}
		if failed != 1 || ok != 1 {
			t.Errorf("%d failed and %d succeeded; want the failure kept by the caller whose run it was", failed, ok)
		}
	})
}

// TestWaitEndsWithContext: a caller whose context ends while another's
// run is held gives up with its context's error.
func TestWaitEndsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c Check[int]
		release := make(chan struct{})
		go c.Do(t.Context(), func(context.Context) (int, error) { <-release; return 1, nil })
		synctest.Wait()
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() {
			_, err := c.Do(ctx, func(context.Context) (int, error) { return 2, nil })
			done <- err
		}()
		synctest.Wait()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		close(release)
	})
}
