-- The start second of a conference as a column the store fills on every
-- write (confstart.go) instead of an index over the document: the index
-- of 0031 evaluated json_extract over the whole document, for the old row
-- and the new one, on every update of a conference (a speaker change:
-- docs/benchmarks.md "Speaker changes, third pass"). Existing rows take
-- the value the old index held; the order of vc.confs.list is unchanged.
-- 0060_conf_start_column.postgres.sql is the same on PostgreSQL.
ALTER TABLE records ADD COLUMN start_at BIGINT NOT NULL DEFAULT 0;
UPDATE records SET start_at = COALESCE(unixepoch(json_extract(data, '$.start_time')), created_at / 1000000000)
    WHERE kind = 'conf';
DROP INDEX records_conf_start;
CREATE INDEX records_conf_start ON records(domain_moid, state, start_at, id) WHERE kind = 'conf';
