-- The event log (outbox): every committed change of a record appends an
-- event in the same transaction, numbered in commit order. Push tails it
-- on every node (docs/push.md).
CREATE TABLE events (
    seq         BIGINT PRIMARY KEY,
    kind        TEXT NOT NULL,
    id          TEXT NOT NULL,
    domain_moid TEXT NOT NULL,
    owner_moid  TEXT NOT NULL DEFAULT '',
    op          TEXT NOT NULL, -- create, update, delete
    state       TEXT NOT NULL DEFAULT '',
    at          BIGINT NOT NULL
);
