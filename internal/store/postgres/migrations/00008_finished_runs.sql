-- A finished run's log takes no more events: an event after a run.finished
-- whose status is final (anything but awaiting_results, which manual mode
-- continues) is refused with SQLSTATE QA003, but for a fix of the failed
-- statement that the run's reader asks for later (fix.proposed, and the
-- model.called of the model that wrote it). Two writers may each hold a
-- run, a replica whose state went away for a while and the replica that
-- swept it as gone: the sweeper's run.finished takes the next sequence
-- number, and what the first writes after it is refused, so a run ends
-- once (found from outside: a run recorded as failed, then succeeded).

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION quarry_events_after_end() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.type NOT IN ('fix.proposed', 'model.called') AND EXISTS (SELECT 1 FROM events WHERE run_id = NEW.run_id
			AND seq < NEW.seq AND type = 'run.finished' AND (data::json ->> 'status') IS DISTINCT FROM 'awaiting_results') THEN
		RAISE EXCEPTION 'events are append-only: run % has finished, and its log takes no more events', NEW.run_id USING ERRCODE = 'QA003';
	END IF;
	RETURN NEW;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
DO $$
BEGIN
	EXECUTE format('ALTER FUNCTION quarry_events_after_end() SET search_path = %I, pg_temp', current_schema());
END $$;
-- +goose StatementEnd

CREATE TRIGGER events_after_end BEFORE INSERT ON events
	FOR EACH ROW EXECUTE FUNCTION quarry_events_after_end();

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
