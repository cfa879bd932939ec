// Package sqlite is quarry's default state store (store.State): the
// append-only event logs of runs, an index of runs for fast listing, stored
// results and chat sessions, in an embedded SQLite database
// (.quarry/state.db beside quarry.yaml). It passes the storetest suite, as
// the postgres backend does.
//
// The event log is the truth. Events are only ever inserted: triggers in
// the schema abort any UPDATE of an event, any second insert under a (run,
// seq) that already exists, any event of a pruned run, and any DELETE of
// an event whose run is not marked in pruned_runs, which only a finished
// run can be (Prune, retention). A run's state is the event.Fold
// of its events; the runs table is an index derived from them, rebuilt by
// Reindex at any time.
//
// The store uses the database/sql driver of github.com/ncruces/go-sqlite3
// (pure Go, no cgo): database/sql gives a connection pool that several
// goroutines share, context cancellation and plain transactions, and each
// connection is set up with WAL, a busy timeout and foreign keys, with
// write transactions started IMMEDIATE so concurrent writers queue on the
// busy timeout instead of failing on lock upgrades.
//
// Within one process, writes do not meet the busy timeout: they queue on
// the store's own writer (writer.go), and the goroutine whose turn it is
// commits every write then waiting in one transaction, each under a
// savepoint of its own, so that one write's failure undoes that write
// alone (group commit). Write statements are prepared once per connection
// and kept. A burst of 200 chats recording their first events costs a few
// commits instead of 400 (BenchmarkState/StartRuns).
package sqlite
