package sqlite

import (
	"context"
	"errors"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/quarrydata/quarry/internal/quarry"
)

// migration is one forward-only schema change. Versions start at 1 and
// never change once released; a new change is a new migration.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the schema's history, oldest first.
func migrations() []migration {
	return []migration{
		{1, "events and runs", `
CREATE TABLE events (
	run_id  TEXT    NOT NULL CHECK (run_id <> ''),
	seq     INTEGER NOT NULL CHECK (seq > 0),
	type    TEXT    NOT NULL CHECK (type <> ''),
	version INTEGER NOT NULL,
	at      TEXT    NOT NULL, -- UTC, fixed width: 2006-01-02T15:04:05.000000000Z
	data    TEXT    NOT NULL, -- the payload, compact JSON
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- The log is append-only. INSERT OR REPLACE would delete the old row
-- without firing the delete trigger, so a second insert under an existing
-- key aborts too.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: they cannot be updated'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: they cannot be deleted'); END;
CREATE TRIGGER events_no_overwrite BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE run_id = NEW.run_id AND seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'events are append-only: this run already has an event with this sequence number'); END;

-- An index of runs derived from the events (Store.Reindex rebuilds it).
CREATE TABLE runs (
	run_id      TEXT    NOT NULL PRIMARY KEY,
	kind        TEXT    NOT NULL DEFAULT '',
	status      TEXT    NOT NULL DEFAULT 'running',
	session_id  TEXT    NOT NULL DEFAULT '',
	started_at  TEXT    NOT NULL DEFAULT '',
	finished_at TEXT    NOT NULL DEFAULT '',
	last_seq    INTEGER NOT NULL DEFAULT 0,
	events      INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX runs_by_start ON runs (started_at DESC, run_id DESC);
CREATE INDEX runs_by_kind ON runs (kind, started_at DESC, run_id DESC);
CREATE INDEX runs_by_session ON runs (session_id, started_at DESC, run_id DESC);
`},
		{2, "results", `
CREATE TABLE results (
	id         TEXT    NOT NULL PRIMARY KEY,
	run_id     TEXT    NOT NULL,
	hash       TEXT    NOT NULL, -- "sha256:" + hex of body
	columns    TEXT    NOT NULL, -- JSON, for people reading the database
	row_count  INTEGER NOT NULL,
	truncated  INTEGER NOT NULL,
	body       BLOB    NOT NULL, -- the canonical encoding of columns and rows
	created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;
CREATE INDEX results_by_run ON results (run_id);
`},
		{3, "sessions", `
CREATE TABLE sessions (
	id          TEXT NOT NULL PRIMARY KEY,
	title       TEXT NOT NULL DEFAULT '',
	last_run_id TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL,
	updated_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id DESC);
`},
		{4, "owners and retention", `
ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN tenant TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_by_owner ON runs (tenant, owner, started_at DESC, run_id DESC);
CREATE INDEX runs_by_finish ON runs (finished_at) WHERE finished_at <> '';
ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN tenant TEXT NOT NULL DEFAULT '';

-- A pruned run: deleted whole by retention. Its ID stays, so that its log
-- can never be reopened by a late append.
CREATE TABLE pruned_runs (
	run_id    TEXT NOT NULL PRIMARY KEY,
	pruned_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;

-- Only a run that has finished for good can be marked pruned: a
-- run.finished that is not a manual-mode run waiting for pasted results.
CREATE TRIGGER pruned_runs_finished BEFORE INSERT ON pruned_runs
WHEN NOT EXISTS (SELECT 1 FROM events WHERE run_id = NEW.run_id AND type = 'run.finished'
	AND coalesce(json_extract(data, '$.status'), '') <> 'awaiting_results')
BEGIN SELECT RAISE(ABORT, 'events are append-only: only a finished run can be pruned'); END;
CREATE TRIGGER pruned_runs_no_update BEFORE UPDATE ON pruned_runs
BEGIN SELECT RAISE(ABORT, 'events are append-only: a pruned run stays pruned'); END;
CREATE TRIGGER pruned_runs_no_delete BEFORE DELETE ON pruned_runs
BEGIN SELECT RAISE(ABORT, 'events are append-only: a pruned run stays pruned'); END;

-- Events of a run may be deleted only once the run is marked pruned, and
-- a pruned run takes no new events.
DROP TRIGGER events_no_delete;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
WHEN NOT EXISTS (SELECT 1 FROM pruned_runs WHERE run_id = OLD.run_id)
BEGIN SELECT RAISE(ABORT, 'events are append-only: they cannot be deleted, except a whole finished run by quarry runs prune'); END;
CREATE TRIGGER events_not_pruned BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM pruned_runs WHERE run_id = NEW.run_id)
BEGIN SELECT RAISE(ABORT, 'events are append-only: this run was pruned'); END;
`},
		{5, "the question a session continues", `
ALTER TABLE sessions ADD COLUMN from_run_id TEXT NOT NULL DEFAULT '';
`},
		{6, "people, tokens and sign-ins", `
-- People who may use a shared quarry. connections: a JSON array of the
-- connections they may use; [] is all of them.
CREATE TABLE users (
	name        TEXT NOT NULL PRIMARY KEY CHECK (name <> ''),
	role        TEXT NOT NULL CHECK (role IN ('admin', 'analyst', 'viewer')),
	connections TEXT NOT NULL DEFAULT '[]',
	created_at  TEXT NOT NULL
) WITHOUT ROWID;

-- API tokens: the SHA-256 of the secret, never the secret.
CREATE TABLE tokens (
	id         TEXT NOT NULL PRIMARY KEY,
	user_name  TEXT NOT NULL,
	label      TEXT NOT NULL DEFAULT '',
	hash       TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL,
	last_used  TEXT NOT NULL DEFAULT '',
	revoked_at TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

-- Browser sign-ins: the SHA-256 of the cookie's secret.
CREATE TABLE sign_ins (
	hash       TEXT NOT NULL PRIMARY KEY,
	user_name  TEXT NOT NULL,
	token_id   TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sign_ins_by_user ON sign_ins (user_name);
`},
		{7, "the groups of an OpenID Connect sign-in", `
-- A JSON array of the groups the identity provider named; [] for none.
ALTER TABLE sign_ins ADD COLUMN groups TEXT NOT NULL DEFAULT '[]';
`},
		{8, "groups, and runs shared", `
-- group_names: a JSON array of the groups a person is in.
ALTER TABLE users ADD COLUMN group_names TEXT NOT NULL DEFAULT '[]';

-- Runs shared with people (grantee: a name) or groups ("group:" and a
-- name), besides their owner.
CREATE TABLE shares (
	run_id  TEXT NOT NULL,
	grantee TEXT NOT NULL CHECK (grantee <> ''),
	by_name TEXT NOT NULL DEFAULT '',
	at      TEXT NOT NULL,
	PRIMARY KEY (run_id, grantee)
) WITHOUT ROWID;
CREATE INDEX shares_by_grantee ON shares (grantee, run_id);
`},
		{9, "approval mode per person", `
-- 1 when every statement a language model proposes for this person waits
-- for an admin's approval (docs/approval.md).
ALTER TABLE users ADD COLUMN approval INTEGER NOT NULL DEFAULT 0 CHECK (approval IN (0, 1));
`},
		{10, "replicas", `
-- The quarry serve processes sharing this state, each with the last time
-- it said it was alive. A run a replica started names it in run.started;
-- a replica whose heartbeat is too old has its running runs finished as
-- failed by the others.
CREATE TABLE replicas (
	id         TEXT NOT NULL PRIMARY KEY CHECK (id <> ''),
	started_at TEXT NOT NULL,
	seen_at    TEXT NOT NULL
) WITHOUT ROWID;
`},
		{11, "a finished run takes no more events", `
-- An event after a run.finished whose status is final (anything but
-- awaiting_results, which manual mode continues) is refused: a run ends
-- once, whoever else still writes to it. A fix of the failed statement,
-- asked for later, is recorded in the run's log (fix.proposed, and the
-- model.called of the model that wrote it).
CREATE TRIGGER events_after_end BEFORE INSERT ON events
WHEN NEW.type NOT IN ('fix.proposed', 'model.called') AND EXISTS (SELECT 1 FROM events WHERE run_id = NEW.run_id
	AND seq < NEW.seq AND type = 'run.finished' AND json_extract(data, '$.status') IS NOT 'awaiting_results')
BEGIN SELECT RAISE(ABORT, '` + finishedRun + `'); END;
`},
	}
}

// finishedRun is the refusal of migration 11's trigger, which Append
// reads as store.Ended. It is part of the schema's history: never changed.
const finishedRun = "events are append-only: this run has finished, and its log takes no more events"

// SchemaVersion is the schema version this build of quarry writes: the
// version of the last migration.
const SchemaVersion = 11

// migrate applies the migrations the database lacks, each in its own
// transaction, and refuses a database written by a newer quarry. Running it
// again changes nothing; two processes migrating at once serialise on the
// write lock and the second finds the work done.
func (s *Store) migrate(ctx context.Context) error {
	// The common case, a database already up to date, needs no write lock.
	var tables int
	// A new file's first readers can meet another process switching it
	// to WAL, which SQLite reports as busy without waiting for the busy
	// timeout; they try again for as long as that timeout.
	err := retryBusy(ctx, func() error {
		return s.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&tables)
	})
	if err != nil {
		return s.dbErr(ctx, err, "read the state database")
	}
	if tables == 0 {
		err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
			_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER NOT NULL PRIMARY KEY,
	name       TEXT    NOT NULL,
	applied_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)`)
			return err
		})
		if err != nil {
			return s.dbErr(ctx, err, "prepare the state database")
		}
	}
	var current int
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return s.dbErr(ctx, err, "read the state database version")
	}
	if current > SchemaVersion {
		return quarry.Errorf(quarry.KindConfig, "the state database %s has schema version %d, newer than this quarry understands (%d); upgrade quarry", s.path, current, SchemaVersion)
	}
	for _, m := range migrations() {
		if m.version <= current {
			continue
		}
		err := s.inTx(ctx, func(ctx context.Context, tx *txn) error {
			var done int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&done); err != nil {
				return err
			}
			if done > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.version, m.name)
			return err
		})
		if err != nil {
			return s.dbErr(ctx, err, "migrate the state database to version %d (%s)", m.version, m.name)
		}
	}
	return nil
}

// retryBusy runs fn until it does not fail with SQLITE_BUSY or
// SQLITE_LOCKED, for at most busyTimeout.
func retryBusy(ctx context.Context, fn func() error) error {
	deadline := time.Now().Add(busyTimeout)
	for {
		err := fn()
		if err == nil || !(errors.Is(err, sqlite3.BUSY) || errors.Is(err, sqlite3.LOCKED)) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(10 * time.Millisecond):
		}
	}
}
