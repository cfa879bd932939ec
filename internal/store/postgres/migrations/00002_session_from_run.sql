-- The question a session continues, asked before the session existed
-- (quarry ask --continue): its first turn.

-- +goose Up
ALTER TABLE sessions ADD COLUMN from_run_id text COLLATE "C" NOT NULL DEFAULT '';

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
