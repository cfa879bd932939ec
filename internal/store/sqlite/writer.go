package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// writer commits this process's writes together. SQLite lets one writer in
// at a time anyway; without a queue of its own, writers that find the lock
// taken sleep in the busy handler while the lock sits free, and each pays
// for a commit of its own, so a burst of short writes (200 chats starting
// at once, each recording its first event) waits hundreds of
// milliseconds. Here the goroutine that takes the turn runs every write
// then waiting in one transaction, each under a savepoint of its own, so
// that one write's failure leaves the others whole (group commit). Other
// processes still meet the busy handler.
type writer struct {
	turn    chan struct{} // holds a token while a batch is written
	mu      sync.Mutex
	pending []*write
}

// write is one caller's transaction body, waiting for its batch.
type write struct {
	ctx  context.Context
	fn   func(ctx context.Context, tx *txn) error
	done chan error
}

// run runs the write's body, turning a panic into a panicked error that
// inTx raises again in the caller's goroutine.
func (w *write) run(ctx context.Context, tx *txn) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked{r}
		}
	}()
	return w.fn(ctx, tx)
}

// panicked carries a write's panic to its caller.
type panicked struct{ value any }

func (p panicked) Error() string { return fmt.Sprintf("a write panicked: %v", p.value) }

// answer tells the caller how its write ended.
func (w *write) answer(err error) {
	w.done <- err
}

// inTx runs fn in a write transaction, committed with the writes waiting
// with it, and returns fn's error or the commit's. fn runs at most once,
// and is given a context that is not canceled while its batch is written:
// an interrupted statement would roll back the others' work. A caller
// whose ctx ends before its write is taken gets ctx's error and nothing
// is written; once taken, its write completes and the caller learns how.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx *txn) error) error {
	w := &write{ctx: ctx, fn: fn, done: make(chan error, 1)}
	s.w.mu.Lock()
	s.w.pending = append(s.w.pending, w)
	s.w.mu.Unlock()
	for {
		select {
		case err := <-w.done:
			if p, ok := err.(panicked); ok {
				panic(p.value)
			}
			return err
		case s.w.turn <- struct{}{}:
			// The goroutine holding the turn goes on writing what arrived
			// meanwhile: handing the turn to a waiter would wait for the
			// scheduler to run it, behind everything runnable.
			func() {
				defer func() { <-s.w.turn }() // even if a write panics
				for range maxRounds {
					if !s.commitPending(ctx) {
						break
					}
				}
			}()
		case <-ctx.Done():
			if s.w.withdraw(w) {
				return ctx.Err()
			}
			err := <-w.done
			if p, ok := err.(panicked); ok {
				panic(p.value)
			}
			return err
		}
	}
}

// withdraw takes w off the queue, reporting whether it was still there.
func (w *writer) withdraw(x *write) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	i := slices.Index(w.pending, x)
	if i < 0 {
		return false
	}
	w.pending = slices.Delete(w.pending, i, i+1)
	return true
}

// maxRounds bounds how many batches one goroutine writes for others
// before it goes back to its own work.
const maxRounds = 8

// commitPending writes every waiting write in one transaction, reporting
// whether there was any. It runs only while its caller holds the turn.
func (s *Store) commitPending(ctx context.Context) bool {
	s.w.mu.Lock()
	batch := s.w.pending
	s.w.pending = nil
	s.w.mu.Unlock()
	if len(batch) == 0 {
		return false
	}
	ctx = context.WithoutCancel(ctx)
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		for _, w := range batch {
			w.answer(err)
		}
		return true
	}
	tx := &txn{tx: sqlTx, stmts: &s.stmts}
	var applied []*write
	for i, w := range batch {
		if err := w.ctx.Err(); err != nil {
			w.answer(err)
			continue
		}
		if len(batch) == 1 {
			if err := w.run(ctx, tx); err != nil {
				_ = tx.Rollback()
				w.answer(err)
				return true
			}
			applied = append(applied, w)
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT write`); err != nil {
			fail(tx, append(applied, batch[i:]...), err)
			return true
		}
		err := w.run(ctx, tx)
		if p, ok := err.(panicked); ok {
			// A write that panicked leaves the transaction as it was
			// then: nothing of the batch is committed, and the panic goes
			// on in its caller's goroutine, not in this one.
			w.answer(p)
			fail(tx, append(applied, batch[i+1:]...), fmt.Errorf("a write committed with this one failed (%v); try again", p.value))
			return true
		}
		if err != nil {
			// Rolling back to the savepoint undoes this write alone. Should
			// SQLite have ended the whole transaction (a full disk, an I/O
			// error), the savepoint is gone: then nothing is committed.
			if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO write; RELEASE write`); rerr != nil {
				w.answer(err)
				fail(tx, append(applied, batch[i+1:]...), rerr)
				return true
			}
			w.answer(err)
			continue
		}
		if _, err := tx.ExecContext(ctx, `RELEASE write`); err != nil {
			fail(tx, append(applied, batch[i:]...), err)
			return true
		}
		applied = append(applied, w)
	}
	err = tx.Commit()
	for _, w := range applied {
		w.answer(err)
	}
	return true
}

// fail rolls tx back and tells each of ws that it failed with err.
func fail(tx *txn, ws []*write, err error) {
	_ = tx.Rollback()
	for _, w := range ws {
		w.answer(err)
	}
}

// exec runs one write statement, committed with the writes waiting with
// it.
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		res, err = tx.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

// txn is a write transaction whose statements are prepared once per
// connection and kept: parsing SQL is about 40% of a short write's time
// (the runs index's upsert above all).
type txn struct {
	tx    *sql.Tx
	stmts *stmtCache
}

// ExecContext runs a statement of the transaction.
func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.stmts.get(ctx, t.tx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

// QueryContext runs a query of the transaction.
func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.stmts.get(ctx, t.tx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a query of the transaction that returns one row.
func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.stmts.get(ctx, t.tx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}

// Rollback rolls the transaction back.
func (t *txn) Rollback() error { return t.tx.Rollback() }

// Commit commits the transaction.
func (t *txn) Commit() error { return t.tx.Commit() }

// stmtCache holds the store's prepared write statements, at most
// maxStatements of them; database/sql prepares each once on every
// connection that runs it.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxStatements bounds the cache: the store's statements are fixed text,
// but a query built for a list of values would grow it without end.
const maxStatements = 64

// get returns query prepared on tx's connection, or nil to run it as text
// (a script of several statements, a full cache, a failed prepare, which
// running it as text reports).
func (c *stmtCache) get(ctx context.Context, tx *sql.Tx, query string) *sql.Stmt {
	if strings.Contains(query, ";") {
		return nil
	}
	c.mu.Lock()
	st, ok := c.m[query]
	if !ok && len(c.m) < maxStatements {
		var err error
		if st, err = c.db.PrepareContext(ctx, query); err == nil {
			if c.m == nil {
				c.m = map[string]*sql.Stmt{}
			}
			c.m[query] = st
		}
	}
	c.mu.Unlock()
	if st == nil {
		return nil
	}
	return tx.StmtContext(ctx, st)
}

// close closes the prepared statements.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}
