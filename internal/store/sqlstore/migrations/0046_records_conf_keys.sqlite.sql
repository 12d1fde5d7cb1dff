-- The keys of the conferences in a state (sqlstore RecordKeys, keys.go):
-- the server's tick lists the running conferences' ids, domains and
-- versions (internal/conference/memo.go) and reads them from this index
-- alone, without a lookup of each row (docs/benchmarks.md, "Where the
-- idle CPU goes now"). On conference records only: queries write the
-- kind literally so that the partial index applies. The kind is a column
-- too, or SQLite's planner prefers records_due, which matches both
-- equalities. 0046_records_conf_keys.postgres.sql is the same index on
-- PostgreSQL.
CREATE INDEX records_conf_keys ON records(kind, state, id, domain_moid, version) WHERE kind = 'conf';
