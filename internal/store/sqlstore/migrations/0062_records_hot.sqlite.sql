-- The same indexes as 0062_records_hot.postgres.sql, for another reason:
-- SQLite has no HOT update, but it rewrites the entries of every index
-- holding a column an UPDATE sets, so a change of a running conference's
-- document (sqlstore updateDocument: data, updated_at, version) rewrote
-- those of records_domain (updated_at) and records_conf_keys (version)
-- beside the row. Without them it writes the row alone; ListRecords
-- sorts a kind's records of a domain by update time after reading them,
-- and the tick's listing of running conferences (keys.go) reads the rows
-- through records_due.
DROP INDEX records_conf_keys;
DROP INDEX records_domain;
CREATE INDEX records_domain ON records(kind, domain_moid);
