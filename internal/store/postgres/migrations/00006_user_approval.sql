-- Approval mode per person (docs/approval.md): 1 when every statement a
-- language model proposes for this person waits for an admin's approval.

-- +goose Up
ALTER TABLE users ADD COLUMN approval integer NOT NULL DEFAULT 0 CHECK (approval IN (0, 1));

-- +goose Down
-- quarry's state migrations are forward-only.
SELECT 1;
