-- A session belongs to the account_token it logged in with (docs/api.md
-- "Licenses, tokens and sessions"): the hash of that token. Sessions made
-- before this migration have none and are accepted with any valid token
-- until they expire.
ALTER TABLE sessions ADD COLUMN token_hash TEXT NOT NULL DEFAULT '';
