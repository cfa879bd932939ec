-- The groups the identity provider named when a person signed in with
-- OpenID Connect: a JSON array; [] for none, and for sign-ins made with a
-- token.

-- +goose Up
ALTER TABLE sign_ins ADD COLUMN groups text NOT NULL DEFAULT '[]';

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
