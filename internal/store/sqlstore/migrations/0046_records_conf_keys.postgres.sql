-- The keys of the conferences in a state, read from the index alone: see
-- 0046_records_conf_keys.sqlite.sql. PostgreSQL estimates kind = 'conf'
-- AND state = 'running' as if the two were independent (a few rows of
-- 1,000), and then prefers records_due and a lookup of each row; the
-- statistics of their dependency correct the estimate.
CREATE INDEX records_conf_keys ON records(kind, state, id, domain_moid, version) WHERE kind = 'conf';
CREATE STATISTICS records_kind_state (dependencies) ON kind, state FROM records;
