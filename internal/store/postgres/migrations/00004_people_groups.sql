-- The groups people are in. group_names: a JSON array of group names; []
-- is none.

-- +goose Up
ALTER TABLE users ADD COLUMN group_names text NOT NULL DEFAULT '[]';

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
