-- Leases on time-driven work (store.Claimer, sqlstore/claims.go): one row
-- per piece of work claimed by a node, until the lease ends. Rows whose
-- lease ended long ago are pruned by later claims.
CREATE TABLE claims (
    name  TEXT PRIMARY KEY,
    until BIGINT NOT NULL
);
CREATE INDEX claims_until ON claims(until);
