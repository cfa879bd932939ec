-- People who may use a shared quarry, their API tokens and their browser
-- sign-ins. Secrets are never stored: tokens and sign-ins are kept as the
-- SHA-256 of their secret. connections: a JSON array of the connections a
-- person may use; [] is all of them.

-- +goose Up
CREATE TABLE users (
	name        text COLLATE "C" NOT NULL PRIMARY KEY CHECK (name <> ''),
	role        text NOT NULL CHECK (role IN ('admin', 'analyst', 'viewer')),
	connections text NOT NULL DEFAULT '[]',
	created_at  text COLLATE "C" NOT NULL
);

CREATE TABLE tokens (
	id         text COLLATE "C" NOT NULL PRIMARY KEY,
	user_name  text COLLATE "C" NOT NULL,
	label      text NOT NULL DEFAULT '',
	hash       text COLLATE "C" NOT NULL UNIQUE,
	created_at text COLLATE "C" NOT NULL,
	last_used  text COLLATE "C" NOT NULL DEFAULT '',
	revoked_at text COLLATE "C" NOT NULL DEFAULT ''
);

CREATE TABLE sign_ins (
	hash       text COLLATE "C" NOT NULL PRIMARY KEY,
	user_name  text COLLATE "C" NOT NULL,
	token_id   text COLLATE "C" NOT NULL DEFAULT '',
	created_at text COLLATE "C" NOT NULL,
	expires_at text COLLATE "C" NOT NULL
);
CREATE INDEX sign_ins_by_user ON sign_ins (user_name);

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
