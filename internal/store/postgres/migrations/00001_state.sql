-- quarry's state on PostgreSQL: the same tables and rules as the embedded
-- SQLite store (internal/store/sqlite), in the schema named first in the
-- connection's search_path ("quarry" unless the URL says otherwise).
-- Identifiers and instants are text in the C collation, so that their
-- order is byte order, as in SQLite.

-- +goose Up
CREATE TABLE events (
	run_id  text COLLATE "C" NOT NULL CHECK (run_id <> ''),
	seq     bigint  NOT NULL CHECK (seq > 0),
	type    text    NOT NULL CHECK (type <> ''),
	version integer NOT NULL,
	at      text COLLATE "C" NOT NULL, -- UTC, fixed width: 2006-01-02T15:04:05.000000000Z
	data    text    NOT NULL,          -- the payload, compact JSON, byte for byte
	PRIMARY KEY (run_id, seq)
);

CREATE TABLE runs (
	run_id      text COLLATE "C" NOT NULL PRIMARY KEY,
	kind        text NOT NULL DEFAULT '',
	status      text NOT NULL DEFAULT 'running',
	session_id  text COLLATE "C" NOT NULL DEFAULT '',
	owner       text NOT NULL DEFAULT '',
	tenant      text NOT NULL DEFAULT '',
	started_at  text COLLATE "C" NOT NULL DEFAULT '',
	finished_at text COLLATE "C" NOT NULL DEFAULT '',
	last_seq    bigint  NOT NULL DEFAULT 0,
	events      integer NOT NULL DEFAULT 0
);
CREATE INDEX runs_by_start ON runs (started_at DESC, run_id DESC);
CREATE INDEX runs_by_kind ON runs (kind, started_at DESC, run_id DESC);
CREATE INDEX runs_by_session ON runs (session_id, started_at DESC, run_id DESC);
CREATE INDEX runs_by_owner ON runs (tenant, owner, started_at DESC, run_id DESC);
CREATE INDEX runs_by_finish ON runs (finished_at) WHERE finished_at <> '';

CREATE TABLE results (
	id         text COLLATE "C" NOT NULL PRIMARY KEY,
	run_id     text COLLATE "C" NOT NULL,
	hash       text    NOT NULL, -- "sha256:" + hex of body
	columns    text    NOT NULL, -- JSON, for people reading the database
	row_count  bigint  NOT NULL,
	truncated  boolean NOT NULL,
	body       bytea   NOT NULL, -- the canonical encoding of columns and rows
	created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX results_by_run ON results (run_id);

CREATE TABLE sessions (
	id          text COLLATE "C" NOT NULL PRIMARY KEY,
	title       text NOT NULL DEFAULT '',
	last_run_id text NOT NULL DEFAULT '',
	owner       text NOT NULL DEFAULT '',
	tenant      text NOT NULL DEFAULT '',
	created_at  text COLLATE "C" NOT NULL,
	updated_at  text COLLATE "C" NOT NULL
);
CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id DESC);

-- A pruned run: deleted whole by retention. Its ID stays, so that its log
-- can never be reopened by a late append.
CREATE TABLE pruned_runs (
	run_id    text COLLATE "C" NOT NULL PRIMARY KEY,
	pruned_at timestamptz NOT NULL DEFAULT now()
);

-- The log is append-only: no update, no truncate, no second event under a
-- (run, seq) (the primary key), no event of a pruned run, and no delete
-- unless the run is marked pruned, which only a finished run can be.
-- SQLSTATE QA001 is an append-only refusal, QA002 an event of a pruned run.
-- +goose StatementBegin
CREATE FUNCTION quarry_events_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		RAISE EXCEPTION 'events are append-only: they cannot be updated' USING ERRCODE = 'QA001';
	ELSIF TG_OP = 'DELETE' THEN
		IF NOT EXISTS (SELECT 1 FROM pruned_runs WHERE run_id = OLD.run_id) THEN
			RAISE EXCEPTION 'events are append-only: they cannot be deleted, except a whole finished run by quarry runs prune' USING ERRCODE = 'QA001';
		END IF;
		RETURN OLD;
	ELSIF TG_OP = 'TRUNCATE' THEN
		RAISE EXCEPTION 'events are append-only: they cannot be truncated' USING ERRCODE = 'QA001';
	END IF;
	IF EXISTS (SELECT 1 FROM pruned_runs WHERE run_id = NEW.run_id) THEN
		RAISE EXCEPTION 'events are append-only: run % was pruned', NEW.run_id USING ERRCODE = 'QA002';
	END IF;
	RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER events_append_only BEFORE INSERT OR UPDATE OR DELETE ON events
	FOR EACH ROW EXECUTE FUNCTION quarry_events_guard();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
	FOR EACH STATEMENT EXECUTE FUNCTION quarry_events_guard();

-- +goose StatementBegin
CREATE FUNCTION quarry_pruned_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		RAISE EXCEPTION 'events are append-only: a pruned run stays pruned' USING ERRCODE = 'QA001';
	END IF;
	-- Finished for good: a run.finished that is not a manual-mode run
	-- waiting for pasted results.
	IF NOT EXISTS (SELECT 1 FROM events WHERE run_id = NEW.run_id AND type = 'run.finished'
			AND (data::json ->> 'status') IS DISTINCT FROM 'awaiting_results') THEN
		RAISE EXCEPTION 'events are append-only: only a finished run can be pruned' USING ERRCODE = 'QA001';
	END IF;
	RETURN NEW;
END $$;
-- +goose StatementEnd
-- A pruned run goes whole: at commit, no event of a run whose events were
-- deleted may remain.
-- +goose StatementBegin
CREATE FUNCTION quarry_events_whole() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM events WHERE run_id = OLD.run_id) THEN
		RAISE EXCEPTION 'events are append-only: run % can only be deleted whole', OLD.run_id USING ERRCODE = 'QA001';
	END IF;
	RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE CONSTRAINT TRIGGER events_whole_run AFTER DELETE ON events
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION quarry_events_whole();

-- The functions read their tables by unqualified name: pin their search
-- path to this schema with pg_temp last, or a session's temporary table
-- named events or pruned_runs would stand in for the real one.
-- +goose StatementBegin
DO $$
BEGIN
	EXECUTE format('ALTER FUNCTION quarry_events_guard() SET search_path = %I, pg_temp', current_schema());
	EXECUTE format('ALTER FUNCTION quarry_pruned_guard() SET search_path = %I, pg_temp', current_schema());
	EXECUTE format('ALTER FUNCTION quarry_events_whole() SET search_path = %I, pg_temp', current_schema());
END $$;
-- +goose StatementEnd

CREATE TRIGGER pruned_runs_guard BEFORE INSERT OR UPDATE OR DELETE ON pruned_runs
	FOR EACH ROW EXECUTE FUNCTION quarry_pruned_guard();
CREATE TRIGGER pruned_runs_no_truncate BEFORE TRUNCATE ON pruned_runs
	FOR EACH STATEMENT EXECUTE FUNCTION quarry_pruned_guard();

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
