-- The groups people are in (group_names: a JSON array of group names; []
-- is none), and runs shared with people (grantee: a name) or groups
-- ("group:" and a name) besides their owner.

-- +goose Up
ALTER TABLE users ADD COLUMN group_names text NOT NULL DEFAULT '[]';

CREATE TABLE shares (
	run_id  text COLLATE "C" NOT NULL,
	grantee text COLLATE "C" NOT NULL CHECK (grantee <> ''),
	by_name text NOT NULL DEFAULT '',
	at      text COLLATE "C" NOT NULL,
	PRIMARY KEY (run_id, grantee)
);
CREATE INDEX shares_by_grantee ON shares (grantee, run_id);

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
