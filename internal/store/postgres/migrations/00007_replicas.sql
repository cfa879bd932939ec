-- The quarry serve processes sharing this state, each with the last time
-- it said it was alive (replicas), and a notification on channel
-- quarry_events, whose payload is the run's ID, for every event stored,
-- so that a replica streaming a run another replica records learns of
-- new events without polling.

-- +goose Up
CREATE TABLE replicas (
	id         text COLLATE "C" NOT NULL PRIMARY KEY CHECK (id <> ''),
	started_at text COLLATE "C" NOT NULL,
	seen_at    text COLLATE "C" NOT NULL
);

-- +goose StatementBegin
CREATE FUNCTION quarry_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('quarry_events', NEW.run_id);
	RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER events_notify AFTER INSERT ON events
FOR EACH ROW EXECUTE FUNCTION quarry_events_notify();

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
